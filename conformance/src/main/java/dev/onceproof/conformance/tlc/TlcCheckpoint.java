package dev.onceproof.conformance.tlc;

import dev.onceproof.provenance.InputsHash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Where a checkpointed run ({@link TlcRequest#withCheckpoint}) keeps TLC's checkpoints, and which one
 * it recovers from.
 *
 * <p>TLC 2.18's layout, seen by running the jar: {@code -metadir M} makes a folder
 * {@code M/yy-MM-dd-HH-mm-ss} per run, and a checkpoint is the files {@code queue.chkpt},
 * {@code vars.chkpt}, {@code <Module>.st.chkpt}, {@code <Module>-0.chkpt} and the fingerprint files in
 * it. {@code -recover M/<run>} reads them and goes on, in a new run folder; a run that ends by itself
 * deletes its folder and the one it recovered from. TLC also picks a random fingerprint polynomial
 * for every run ("with fp 82") and does not store it in the checkpoint: a recovered run that hashes
 * with another polynomial than the stopped one finds states it has seen again (63002 distinct states
 * after recovery against 63001 uninterrupted on a test model), so checkpointed runs fix it with
 * {@code -fp} ({@link #FP_INDEX}).
 *
 * <p>The metadir is {@code dir/<key>}, the key a hash of what TLC reads (the module, the cfg, every
 * .tla file in the module's folder and the library folders, TLC's arguments and the jar's name), so
 * a changed spec never recovers a checkpoint made from another.
 */
public final class TlcCheckpoint {

    /** The fingerprint polynomial of every checkpointed run (any fixed index of TLC's list works). */
    static final int FP_INDEX = 1;

    /** Part of the key: a change to how checkpoints are laid out gives new folders. */
    static final String LAYOUT = "onceproof tlc checkpoint 1";

    private static final List<String> CHECKPOINT_FILES = List.of("queue.chkpt", "vars.chkpt");

    private final Path metadir;

    private TlcCheckpoint(Path metadir) {
        this.metadir = metadir;
    }

    /** The checkpoint folder of this request's inputs. */
    public static TlcCheckpoint of(TlcRequest request, String tlcJarName) {
        if (request.checkpoint() == null) {
            throw new IllegalArgumentException("the request for " + request.module() + " names no checkpoint directory");
        }
        return new TlcCheckpoint(request.checkpoint().toAbsolutePath().resolve(key(request, tlcJarName)));
    }

    /** What TLC gets as -metadir. */
    public Path metadir() {
        return metadir;
    }

    /** The newest complete checkpoint an earlier run of the same inputs left, if any. */
    public Optional<Path> latest() {
        return runFolders().stream().sorted(Comparator.reverseOrder()).filter(TlcCheckpoint::complete).findFirst();
    }

    /**
     * After a run: a run that ended by itself needs no checkpoint any more, so the folder goes; a run
     * that was stopped keeps only its newest complete checkpoint (older ones and half-written ones
     * cost disk only).
     */
    public void afterRun(boolean finished) {
        if (finished) {
            TlcRunner.deleteQuietly(metadir);
            return;
        }
        Optional<Path> keep = latest();
        for (Path f : runFolders()) {
            if (keep.isEmpty() || !f.equals(keep.get())) {
                TlcRunner.deleteQuietly(f);
            }
        }
    }

    private List<Path> runFolders() {
        if (!Files.isDirectory(metadir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(metadir)) {
            return new ArrayList<>(s.filter(Files::isDirectory).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the checkpoints in " + metadir, e);
        }
    }

    private static boolean complete(Path runFolder) {
        return CHECKPOINT_FILES.stream().allMatch(f -> Files.isRegularFile(runFolder.resolve(f)));
    }

    static String key(TlcRequest request, String tlcJarName) {
        TreeSet<Path> files = new TreeSet<>();
        files.add(request.module().toAbsolutePath().normalize());
        files.add(request.cfg().toAbsolutePath().normalize());
        List<Path> dirs = new ArrayList<>(request.library());
        dirs.add(request.module().toAbsolutePath().getParent());
        for (Path d : dirs) {
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> s = Files.list(d)) {
                s.filter(f -> f.getFileName().toString().endsWith(".tla") && Files.isRegularFile(f))
                        .forEach(f -> files.add(f.toAbsolutePath().normalize()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list the modules in " + d, e);
            }
        }
        Path root = files.first().getRoot();
        List<String> inputs = files.stream().map(f -> root.relativize(f).toString()).toList();
        String text = String.join("\n", LAYOUT, InputsHash.of(root, inputs), "deadlock=" + request.checkDeadlock(),
                "args=" + String.join(" ", request.extraArgs()), "tlc=" + tlcJarName, "fp=" + FP_INDEX);
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
