package dev.onceproof.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The real {@link Journal} with one of its package-private defects ({@link Journal.Defect}), on a disk
 * that remembers how far each fsync reached ({@link TestDisks.PowerLoss}), for conformance's Lincheck
 * suite; on the test classpath only. A defect is named as a string so callers outside the package
 * can pick one. Operations and the state are {@link Notes}': strings, and the list of them applied.
 */
public final class JournalSeams {

    private final Path dir;
    private final Journal.Options options;
    private final TestDisks.PowerLoss forced = new TestDisks.PowerLoss();
    private final Journal<List<String>, String> journal;

    /** Opens a journal in {@code dir} (empty or absent) with the named defect ("NONE": as it ships). */
    public JournalSeams(Path dir, Journal.Options options, String defect) {
        this.dir = dir;
        this.options = options;
        this.journal = Journal.open(dir, Notes.CODEC, options, new SlowDisk(forced), Journal.Defect.valueOf(defect),
                Journal.StepHook.NONE);
    }

    /**
     * A disk whose record fsync takes about as long as a real one (a fraction of a millisecond here),
     * without calling it: long enough that a second committer arrives while the leader forces, which
     * is the window group commit is about, on real threads.
     */
    private static final class SlowDisk implements JournalDisk {
        private static final long FSYNC_NANOS = 300_000;
        private final TestDisks.PowerLoss forced;

        SlowDisk(TestDisks.PowerLoss forced) {
            this.forced = forced;
        }

        @Override
        public void force(java.nio.channels.FileChannel channel, Path file) throws IOException {
            java.util.concurrent.locks.LockSupport.parkNanos(FSYNC_NANOS);
            forced.force(channel, file);
        }

        @Override
        public void forceDirectory(Path dir) {
            forced.forceDirectory(dir);
        }
    }

    /**
     * Runs every kind of file operation the journal uses once, outside Lincheck: a JDK class whose
     * static initializer first runs inside Lincheck's analysis is left uninitialized when the
     * analysis aborts that thread ("Could not initialize class sun.nio.ch.FileDispatcherImpl"), and
     * stays broken for the rest of the JVM. Call before the first check.
     */
    public static void warmUp() {
        Path dir;
        try {
            dir = java.nio.file.Files.createTempDirectory("journal-warm-up");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary journal directory", e);
        }
        JournalSeams s = new JournalSeams(dir, Journal.Options.defaults(), "NONE");
        s.journal().appendAndCommit("a");
        s.journal().append("b");
        s.journal().checkpoint(List.of("a"), 1);
        s.journal().commit();
        s.powerLossAndRecover();
        Journal.open(dir, Notes.CODEC, Journal.Options.defaults()).close();
    }

    public Journal<List<String>, String> journal() {
        return journal;
    }

    /** The state after {@code operations}, as a checkpoint of them must hold it. */
    public static List<String> state(List<String> operations) {
        return List.copyOf(operations);
    }

    /**
     * The process dies (what is queued is never written), then the power fails (what no fsync covered
     * is lost); returns the state a journal reopened on what is left recovers. The journal here is
     * unusable afterwards.
     */
    public List<String> powerLossAndRecover() {
        journal.abandon();
        try {
            forced.powerLoss(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot cut journal directory " + dir + " back to what was forced", e);
        }
        Journal<List<String>, String> reopened = Journal.open(dir, Notes.CODEC, options, TestDisks.NO_FSYNC,
                Journal.Defect.NONE, Journal.StepHook.NONE);
        try {
            return Notes.recoveredState(reopened);
        } finally {
            reopened.abandon();
        }
    }
}
