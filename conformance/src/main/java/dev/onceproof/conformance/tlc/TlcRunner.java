package dev.onceproof.conformance.tlc;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs TLC and reads its -tool output. Always one worker, so state counts and the BFS
 * counterexample are deterministic.
 *
 * <p>Where TLC runs is the {@link Mode}: in a JVM of its own per run (the default), or in our JVM
 * in a class loader of its own per run ({@link InProcessTlc}). Both give the same output to the
 * same parser, and the same results (TlcInProcessTest; TlcModeComparison on 20 ci models and 10
 * trace generations found no difference). A run with a budget or a checkpoint always gets its own
 * JVM ({@link TlcRequest#needsOwnJvm}).
 *
 * <p>Which runs go where is measured, not assumed. With the JVM's default flags (G1, C2) a fresh
 * class loader lost to forking: on 20 small ci models and 10 simulation trace generations, 2 jobs,
 * alternating rounds on the shared 2-core machine (load 15 to 23), the median batch took 64.9 s
 * forked against 73.8 s in-process. A class loader saves the JVM's start but not TLC's class
 * loading, and C2 compiles each loader's classes anew, which a short run never pays back. With our
 * JVM started as {@code ./onceproof} starts it (ParallelGC, C1 only, soft references cleared at
 * once so that each run's loader can be collected) the same comparison went the other way: 26.5 s
 * forked against 18.2 s in-process for 12 models (1.45x), 10.7 s against 8.7 s for 6 trace
 * generations. A long run wants C2, which only a JVM of its own gives it here. Hence {@link
 * Mode#AUTO}: the runs TlcJvm starts with C1 only anyway (simulations, small safety models) run
 * in-process, the rest forked.
 */
public final class TlcRunner {

    /** Where TLC runs. */
    public enum Mode {
        /** In our JVM, a fresh class loader per run (no JVM start per run). */
        IN_PROCESS,
        /** A JVM of its own per run, started as {@link TlcJvm} says. */
        FORK,
        /**
         * In our JVM when TlcJvm would start the run with C1 only ({@link TlcJvm#quick}), else
         * forked: what {@code ./onceproof} uses, with its JVM started with C1 only.
         */
        AUTO;

        /**
         * ONCEPROOF_TLC_FORK: on (the default) forks every run, off runs every run in our JVM,
         * auto splits them as {@link #AUTO} says.
         */
        public static Mode fromEnv() {
            String v = System.getenv().getOrDefault("ONCEPROOF_TLC_FORK", "on").trim().toLowerCase(Locale.ROOT);
            return switch (v) {
                case "on" -> FORK;
                case "off" -> IN_PROCESS;
                case "auto" -> AUTO;
                default -> throw new IllegalArgumentException("ONCEPROOF_TLC_FORK is \"" + v
                        + "\"; it must be on, off or auto");
            };
        }
    }

    // How the JVM is started (heap, GC, class archive) is TlcJvm's: it is not a trace input.
    private final TlcJvm jvm;
    private final Mode mode;
    private final InProcessTlc inProcess;

    /** TLC as TlcJvm.standard() says, in the mode ONCEPROOF_TLC_FORK says. */
    public TlcRunner() {
        this(TlcJvm.standard());
    }

    public TlcRunner(TlcJvm jvm) {
        this(jvm, Mode.fromEnv());
    }

    public TlcRunner(TlcJvm jvm, Mode mode) {
        this.jvm = jvm;
        this.mode = mode;
        this.inProcess = new InProcessTlc(jvm.jar());
    }

    public Mode mode() {
        return mode;
    }

    /** Where this request runs: forked when the runner forks or the request needs a JVM of its own. */
    public Mode modeFor(TlcRequest request) {
        if (request.needsOwnJvm()) {
            return Mode.FORK;
        }
        if (mode == Mode.AUTO) {
            return jvm.quick(request) ? Mode.IN_PROCESS : Mode.FORK;
        }
        return mode;
    }

    public TlcJvm jvm() {
        return jvm;
    }

    public TlcResult run(TlcRequest request) {
        requireFile(request.module());
        requireFile(request.cfg());
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("onceproof-tlc");
            if (request.checkpoint() != null) {
                return runCheckpointed(request, scratch);
            }
            return run(request, scratch, scratch.resolve("meta"), null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run TLC on " + request.module(), e);
        } finally {
            deleteQuietly(scratch);
        }
    }

    /**
     * Recovers from the newest checkpoint of the same inputs when there is one. A checkpoint TLC
     * cannot recover from (one cut short when a run was killed) is deleted and the run starts afresh.
     */
    private TlcResult runCheckpointed(TlcRequest request, Path scratch) throws IOException {
        TlcCheckpoint cp = TlcCheckpoint.of(request, jvm.jarName());
        Files.createDirectories(cp.metadir());
        Path from = cp.latest().orElse(null);
        TlcResult r = run(request, scratch, cp.metadir(), from);
        if (from != null && r.outcome() == Outcome.ERROR) {
            deleteQuietly(cp.metadir());
            Files.createDirectories(cp.metadir());
            r = run(request, scratch, cp.metadir(), null);
        }
        cp.afterRun(r.outcome() != Outcome.INCOMPLETE && r.outcome() != Outcome.TIMEOUT);
        return r;
    }

    /** The forked command of a run without checkpoint (its metadir in {@code scratch}). */
    public List<String> command(TlcRequest request, Path scratch) {
        return command(request, scratch, scratch.resolve("meta"), null);
    }

    List<String> command(TlcRequest request, Path scratch, Path metadir, Path recoverFrom) {
        List<String> cmd = new ArrayList<>();
        cmd.add(jvm.javaExe());
        cmd.addAll(jvm.options(request));
        if (request.budget() != null) {
            // JVM-wide, which is why a budgeted run has a JVM of its own.
            cmd.add("-Dtlc2.TLC.stopAfter=" + request.budget().toSeconds());
        }
        cmd.addAll(List.of(
                // TLC unpacks its standard modules into java.io.tmpdir; a private one keeps
                // concurrent runs from reading each other's half-written Naturals.tla.
                "-Djava.io.tmpdir=" + scratch,
                "-DTLA-Library=" + request.library().stream().map(Path::toString)
                        .collect(Collectors.joining(File.pathSeparator)),
                "-cp", jvm.classpath(), "tlc2.TLC"));
        cmd.addAll(tlcArgs(request, metadir, recoverFrom, false));
        return cmd;
    }

    /**
     * TLC's own arguments (after the main class).
     *
     * @param inProcess TLC in our JVM finds files through {@code ToolIO.getUserDir()}, set to the
     *                  module's folder, which it puts in front of every name, absolute ones too; so
     *                  the cfg is given relative to that folder there
     */
    static List<String> tlcArgs(TlcRequest request, Path metadir, Path recoverFrom, boolean inProcess) {
        List<String> cmd = new ArrayList<>(List.of("-tool", "-workers", "1", "-metadir", metadir.toString()));
        if (!request.checkDeadlock()) {
            cmd.add("-deadlock");
        }
        if (request.budget() != null && !request.extraArgs().contains("-coverage")) {
            // TLC prints its coverage when the budget stops it; an interval past the budget keeps
            // it from printing one every minute before that.
            cmd.addAll(List.of("-coverage", Long.toString(request.budget().toMinutes() + 1)));
        }
        if (request.checkpoint() != null) {
            cmd.addAll(List.of("-checkpoint", Long.toString(TlcRequest.CHECKPOINT_EVERY.toMinutes())));
            if (!request.extraArgs().contains("-fp")) {
                cmd.addAll(List.of("-fp", Integer.toString(TlcCheckpoint.FP_INDEX)));
            }
            if (recoverFrom != null) {
                cmd.addAll(List.of("-recover", recoverFrom.toString()));
            }
        }
        cmd.addAll(request.extraArgs());
        cmd.add("-config");
        Path cfg = request.cfg().toAbsolutePath();
        cmd.add(inProcess ? request.module().toAbsolutePath().getParent().relativize(cfg).toString() : cfg.toString());
        // TLC 2.18 looks for the cfg next to the module when the module is given as a path, even for
        // an absolute -config; a bare module name, run in the module's directory, avoids that.
        String module = request.module().getFileName().toString();
        cmd.add(module.endsWith(".tla") ? module.substring(0, module.length() - 4) : module);
        return cmd;
    }

    private TlcResult run(TlcRequest request, Path scratch, Path metadir, Path recoverFrom) throws IOException {
        if (modeFor(request) == Mode.IN_PROCESS) {
            InProcessTlc.Raw raw = inProcess.run(request, tlcArgs(request, metadir, recoverFrom, true), scratch);
            return result(request, raw.lines(), raw.finished(), raw.exitCode(), raw.wall());
        }
        ProcessBuilder pb = new ProcessBuilder(command(request, scratch, metadir, recoverFrom))
                .directory(request.module().toAbsolutePath().getParent().toFile())
                .redirectErrorStream(true);
        long start = System.nanoTime();
        Process p = pb.start();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> drain(p, lines), "tlc-output");
        reader.setDaemon(true);
        reader.start();
        boolean finished;
        try {
            finished = p.waitFor(request.timeout().toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            reader.join(10_000);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while TLC checked " + request.module(), e);
        }
        Duration wall = Duration.ofNanos(System.nanoTime() - start);
        List<String> copy;
        synchronized (lines) {
            copy = new ArrayList<>(lines);
        }
        return result(request, copy, finished, finished ? p.exitValue() : -1, wall);
    }

    /** The result of a run from TLC's output, whether TLC ran in its own JVM or in ours. */
    static TlcResult result(TlcRequest request, List<String> lines, boolean finished, int exitCode, Duration wall) {
        List<TlcMessage> messages = TlcOutputParser.parse(lines);
        CfgFile cfg = CfgFile.read(request.cfg());
        String temporalName = cfg.properties().size() == 1 ? cfg.properties().get(0) : null;
        if (!finished) {
            TlcResult partial = TlcResultReader.read(messages, wall, -1, temporalName);
            return new TlcResult(Outcome.TIMEOUT, null, "TLC did not finish within " + request.timeout().toSeconds()
                    + " s", null, partial.distinctStates(), partial.statesGenerated(), partial.depth(), wall,
                    List.of(), List.of(), partial.printed(), -1, partial.untakenActions());
        }
        return TlcResultReader.read(messages, wall, exitCode, temporalName, request.budget());
    }

    private static void drain(Process p, List<String> lines) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            lines.add("@!@!@STARTMSG 1000:1 @!@!@");
            lines.add("reading TLC's output failed: " + e.getMessage());
            lines.add("@!@!@ENDMSG 1000 @!@!@");
        }
    }

    private static void requireFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("TLC input " + file + " does not exist");
        }
    }

    static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // A leftover temp dir is harmless; the result matters more than the cleanup.
        }
    }
}
