package dev.onceproof.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;

/**
 * Incremental durability: a journal of operations with group commit, and a checkpoint of the whole
 * state that compacts it. Recovery is the checkpoint plus the operations after it.
 *
 * <p><b>Files</b> (one directory per journal): {@code checkpoint}, a {@link FileSnapshotStore} file
 * whose generation is the sequence number of the last operation the state in it includes; and
 * segments {@code journal-<first seq>.log} (see {@link JournalSegment}), every record with its
 * length, sequence number and CRC32C. On {@link #open} a torn tail of the last segment is cut off;
 * any other damage is a {@link CorruptJournalException} naming file and offset, and nothing is
 * changed.
 *
 * <p><b>Group commit</b> ({@link GroupCommit}). {@link #append} gives an operation the next
 * sequence number and queues its record in memory; it never waits for the disk. {@link #commit}
 * returns once the operation is durable; one fsync covers every record written since the previous
 * one, and no lock appenders or committers wait on is held across it.
 *
 * <p><b>Compaction.</b> A caller who holds the state after operation {@code seq} passes it to
 * {@link #checkpoint}, typically when {@link #checkpointDue()}: the journal has grown past
 * {@link Options#checkpointRatio} times the last checkpoint (or the floor). See there for why each
 * crash point recovers the same state.
 *
 * <p>Thread-safe. One process per directory (nothing stops a second one; do not).
 *
 * @param <S> the checkpointed state
 * @param <O> an operation
 */
public final class Journal<S, O> implements OperationLog<S, O> {

    /** How commits share fsyncs. */
    public enum Commit {
        /** One fsync for every record queued when the leader took its batch. */
        GROUP,
        /** One fsync per record: the baseline group commit is measured against. */
        PER_OPERATION
    }

    /**
     * @param checkpointRatio a checkpoint is due when the journal has grown by more than this times
     *                        the larger of the last checkpoint's size and {@code checkpointFloorBytes}:
     *                        then replay reads at most about that multiple of the state, and the
     *                        checkpoint's cost per journal byte is at most its reciprocal
     */
    public record Options(Commit commit, double checkpointRatio, long checkpointFloorBytes) {

        public Options {
            if (!(checkpointRatio > 0) || checkpointFloorBytes < 0) {
                throw new IllegalArgumentException("checkpoint ratio " + checkpointRatio + " must be above 0 and floor "
                        + checkpointFloorBytes + " at least 0");
            }
        }

        /** Group commit; a checkpoint once the journal outgrows twice the state, or 1 MiB. */
        public static Options defaults() {
            return new Options(Commit.GROUP, 2.0, 1 << 20);
        }

        public Options with(Commit c) {
            return new Options(c, checkpointRatio, checkpointFloorBytes);
        }
    }

    /**
     * What {@link #open} found: the checkpoint (empty if none was written) and every durable
     * operation after it, sequence numbers {@code checkpointSeq + 1} onwards in order.
     */
    public record Recovered<S, O>(Optional<S> checkpoint, long checkpointSeq, List<O> operations) {

        /** The sequence number of the last operation recovered (the checkpoint's if none follow). */
        public long lastSeq() {
            return checkpointSeq + operations.size();
        }

        /** The state: the checkpoint (or {@code empty}) with every recovered operation applied in order. */
        public S state(S empty, BiFunction<S, O, S> apply) {
            S s = checkpoint.orElse(empty);
            for (O op : operations) {
                s = apply.apply(s, op);
            }
            return s;
        }
    }

    /** Counters since open. */
    public record Stats(long appended, long durableSeq, long forces, long checkpoints) {
    }

    /** A defect a test injects to show the check that guards against it fails; tests only. */
    enum Defect {
        NONE,
        /** Records are read without comparing their CRC. */
        CRC_NOT_CHECKED,
        /** Any bad record of the last segment is dropped with everything after it, good records too. */
        CORRUPTION_TAKEN_FOR_TORN_TAIL,
        /** A batch is acknowledged as durable without its fsync. */
        ACKNOWLEDGED_WITHOUT_FORCE,
        /** A commit that finds another thread writing returns at once, its record still queued in memory. */
        COMMIT_RETURNS_BEFORE_WRITE,
        /** The leader holds the append lock while it forces, so appenders wait for the disk. */
        APPEND_LOCK_HELD_ACROSS_FORCE,
        /** Compaction deletes covered segments before the checkpoint covering them is written. */
        SEGMENTS_DELETED_BEFORE_CHECKPOINT
    }

    /** The write steps of a checkpoint, after each of which a test may stop it (a crash). */
    enum Step { SEGMENT_ROLLED, CHECKPOINT_WRITTEN, SEGMENT_DELETED, DIRECTORY_FORCED }

    interface StepHook {
        StepHook NONE = (step, file) -> { };

        void after(Step step, Path file);
    }

    private final Path dir;
    private final JournalCodec<S, O> codec;
    private final Options options;
    private final Defect defect;
    private final StepHook hook;
    private final FileSnapshotStore checkpoints;
    private final Recovered<S, O> recovered;
    private final long openedAt;
    private final GroupCommit writer;
    private final FileLock lock;

    /**
     * Serializes checkpoints and close; guards the fields below, which readers read without it.
     * Held across a checkpoint's fsyncs, which is safe because only another checkpoint or close
     * waits for it: appenders, committers and {@link #checkpointDue()} never take it.
     */
    private final ReentrantLock checkpointLock = new ReentrantLock();
    /** Sealed segments, oldest first; the current one is the writer's. */
    private final ArrayDeque<GroupCommit.Sealed> sealed = new ArrayDeque<>();
    private volatile long checkpointSeq;
    private volatile long checkpointBytes;
    private volatile long checkpointsWritten;

    /** Opens (creating if absent) the journal in {@code dir}; {@link #recovered()} has what it held. */
    public static <S, O> Journal<S, O> open(Path dir, JournalCodec<S, O> codec, Options options) {
        return open(dir, codec, options, JournalDisk.REAL, Defect.NONE, StepHook.NONE);
    }

    static <S, O> Journal<S, O> open(Path dir, JournalCodec<S, O> codec, Options options, JournalDisk disk,
            Defect defect, StepHook hook) {
        try {
            return new Journal<>(dir.toAbsolutePath(), codec, options, disk, defect, hook);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open journal directory " + dir, e);
        }
    }

    private Journal(Path dir, JournalCodec<S, O> codec, Options options, JournalDisk disk, Defect defect,
            StepHook hook) throws IOException {
        this.dir = dir;
        this.codec = codec;
        this.options = options;
        this.defect = defect;
        this.hook = hook;
        Files.createDirectories(dir);
        this.lock = lock(dir);
        try {
            this.checkpoints = new FileSnapshotStore(dir.resolve("checkpoint"));
            Opened<S, O> opened = recover(disk);
            this.recovered = opened.recovered();
            this.openedAt = opened.recovered().lastSeq();
            this.writer = opened.writer();
        } catch (IOException | RuntimeException e) {
            lock.channel().close();
            throw e;
        }
    }

    /**
     * One process per directory: two writers would number operations independently and truncate
     * each other's records as torn tails. The OS releases the lock when the process dies.
     */
    private static FileLock lock(Path dir) throws IOException {
        Path file = dir.resolve("lock");
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            ch.close();
            throw new IllegalStateException("journal directory " + dir + " is already open (" + file
                    + " is locked, by this or another process)");
        }
        return lock;
    }

    private record Opened<S, O>(Recovered<S, O> recovered, GroupCommit writer) {
    }

    /** Reads the directory back, checks it, and only then repairs a torn tail. */
    private Opened<S, O> recover(JournalDisk disk) throws IOException {
        JournalRecovery.Found found = JournalRecovery.read(dir, checkpoints, defect != Defect.CRC_NOT_CHECKED,
                defect == Defect.CORRUPTION_TAKEN_FOR_TORN_TAIL);
        Recovered<S, O> read = decode(found);
        // Every check passed: only now change the directory.
        List<JournalSegment.Scan> segments = found.segments();
        long bytes = 0;
        for (int i = 0; i < segments.size() - 1; i++) {
            JournalSegment.Scan s = segments.get(i);
            sealed.add(new GroupCommit.Sealed(s.file(), s.first(), s.last()));
            bytes += s.goodEnd() - JournalSegment.HEADER;
        }
        FileChannel channel;
        Path file;
        long first;
        if (segments.isEmpty()) {
            first = found.checkpointSeq() + 1;
            file = dir.resolve(JournalSegment.name(first));
            channel = GroupCommit.createSegment(dir, first, disk);
        } else {
            JournalSegment.Scan last = segments.get(segments.size() - 1);
            file = last.file();
            first = last.first();
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
            if (last.goodEnd() < JournalSegment.HEADER) {
                // Torn while being created: it holds nothing; write its header again.
                channel.truncate(0);
                GroupCommit.writeFully(channel, JournalSegment.header());
                disk.force(channel, file);
            } else if (last.torn()) {
                channel.truncate(last.goodEnd());
                disk.force(channel, file);
            }
            channel.position(channel.size());
            bytes += channel.size() - JournalSegment.HEADER;
        }
        this.checkpointSeq = found.checkpointSeq();
        this.checkpointBytes = found.checkpoint().map(s -> (long) s.payload().length).orElse(0L);
        return new Opened<>(read, new GroupCommit(dir, options.commit(), disk, defect, channel, file, first,
                found.lastSeq(), bytes));
    }

    private Recovered<S, O> decode(JournalRecovery.Found found) {
        Optional<S> state = Optional.empty();
        if (found.checkpoint().isPresent()) {
            try {
                state = Optional.of(codec.decodeCheckpoint(found.checkpoint().get().payload()));
            } catch (RuntimeException e) {
                throw new CorruptSnapshotException(checkpoints.where(), "its state does not decode: " + e.getMessage());
            }
        }
        List<O> ops = new ArrayList<>();
        for (JournalSegment.Scan scan : found.segments()) {
            for (JournalSegment.Entry entry : scan.entries()) {
                if (entry.seq() <= found.checkpointSeq()) {
                    continue; // already in the checkpoint
                }
                try {
                    ops.add(codec.decodeOperation(entry.payload()));
                } catch (RuntimeException e) {
                    throw new CorruptJournalException(scan.file(), entry.offset(), "operation " + entry.seq()
                            + " passed its CRC but does not decode: " + e.getMessage());
                }
            }
        }
        return new Recovered<>(state, found.checkpointSeq(), List.copyOf(ops));
    }

    /** What the directory held when it was opened. */
    @Override
    public Recovered<S, O> recovered() {
        return recovered;
    }

    @Override
    public String where() {
        return "journal directory " + dir;
    }

    /**
     * Queues {@code operation} and returns its sequence number; it is durable once
     * {@link #commit(long)} of that number returns. Never waits for the disk.
     */
    @Override
    public long append(O operation) {
        return writer.append(codec.encodeOperation(operation));
    }

    /** Returns once every operation up to {@code seq} is durable (forced to the disk). */
    @Override
    public void commit(long seq) {
        if (seq > lastSeq()) {
            throw new IllegalArgumentException("commit of sequence number " + seq + " in " + where()
                    + ", which has appended only up to " + lastSeq());
        }
        writer.commit(seq);
    }

    /** Appends and commits: returns the operation's sequence number once it is durable. */
    public long appendAndCommit(O operation) {
        long seq = append(operation);
        writer.commit(seq);
        return seq;
    }

    /** Commits everything appended so far. */
    public void commit() {
        writer.commit(lastSeq());
    }

    /** True when the journal has outgrown the last checkpoint by {@link Options#checkpointRatio}. */
    @Override
    public boolean checkpointDue() {
        long base = Math.max(checkpointBytes, options.checkpointFloorBytes());
        return writer.bytesSinceRoll() > options.checkpointRatio() * base;
    }

    /**
     * Makes {@code state}, the state after every operation up to {@code throughSeq}, the checkpoint,
     * and deletes the segments it covers. Appends and commits go on meanwhile.
     *
     * <p><b>Why a crash at any point recovers the same state.</b> The steps, in order:
     * <ol>
     * <li>Commit through {@code throughSeq}, so the journal never ends below the checkpoint.</li>
     * <li>Seal the current segment (forced whole) and start a new one, whose header and directory
     *     entry are forced before any record goes in. A crash before that leaves the old segment
     *     whole and the new one absent or with a torn header, which open rewrites: the segments still
     *     run without a gap from the old checkpoint on.</li>
     * <li>Write the checkpoint: temporary file, fsync, atomic rename, fsync of the directory
     *     ({@link FileSnapshotStore}). Before the rename, open sees the old checkpoint and every
     *     segment; after it, the new one and every segment, and skips operations it covers. Either
     *     gives the same state; a temporary file is never read.</li>
     * <li>Delete the segments whose every operation the checkpoint covers, oldest first, then fsync
     *     the directory. A crash midway leaves a suffix of the segments that still starts at or below
     *     the checkpoint's next operation; a deletion the directory fsync did not make durable brings
     *     back a covered segment, which open skips. Deleting before the checkpoint is durable would
     *     lose operations: {@link Defect#SEGMENTS_DELETED_BEFORE_CHECKPOINT} shows recovery refusing
     *     that gap.</li>
     * </ol>
     *
     * @throws SnapshotBackwardsException if {@code throughSeq} is below the current checkpoint's
     */
    @Override
    public void checkpoint(S state, long throughSeq) {
        if (throughSeq > lastSeq()) {
            throw new IllegalArgumentException("checkpoint through sequence number " + throughSeq + " in " + where()
                    + ", which has appended only up to " + lastSeq());
        }
        checkpointLock.lock();
        try {
            if (throughSeq < checkpointSeq) {
                throw new SnapshotBackwardsException(where(), throughSeq, checkpointSeq);
            }
            if (throughSeq == checkpointSeq) {
                return;
            }
            byte[] payload = codec.encodeCheckpoint(state);
            writer.commit(throughSeq);
            GroupCommit.Sealed rolled = writer.roll();
            if (rolled != null) {
                sealed.add(rolled);
            }
            hook.after(Step.SEGMENT_ROLLED, dir);
            if (defect == Defect.SEGMENTS_DELETED_BEFORE_CHECKPOINT) {
                deleteCovered(throughSeq);
            }
            checkpoints.write(new Snapshot(throughSeq, payload));
            hook.after(Step.CHECKPOINT_WRITTEN, checkpoints.file());
            deleteCovered(throughSeq);
            checkpointSeq = throughSeq;
            checkpointBytes = payload.length;
            checkpointsWritten++;
        } finally {
            checkpointLock.unlock();
        }
    }

    private void deleteCovered(long throughSeq) {
        boolean deleted = false;
        while (!sealed.isEmpty() && sealed.peek().last() <= throughSeq) {
            GroupCommit.Sealed s = sealed.poll();
            try {
                Files.delete(s.file());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete journal file " + s.file() + ", which the checkpoint covers", e);
            }
            deleted = true;
            hook.after(Step.SEGMENT_DELETED, s.file());
        }
        if (deleted) {
            try {
                writer.forceDirectory();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot force journal directory " + dir + " after deleting segments", e);
            }
            hook.after(Step.DIRECTORY_FORCED, dir);
        }
    }

    @Override
    public long lastSeq() {
        return writer.lastSeq();
    }

    public long checkpointSeq() {
        return checkpointSeq;
    }

    @Override
    public Stats stats() {
        return new Stats(lastSeq() - openedAt, writer.durableSeq(), writer.forces(), checkpointsWritten);
    }

    /** Commits what was appended, then closes. */
    @Override
    public void close() {
        checkpointLock.lock();
        try {
            writer.close();
        } finally {
            releaseLock();
            checkpointLock.unlock();
        }
    }

    /** Closes the file without writing what is queued: the process died. Tests only. */
    void abandon() {
        writer.abandon();
        releaseLock();
    }

    private void releaseLock() {
        try {
            lock.channel().close(); // releases the lock
        } catch (IOException e) {
            // the lock goes with the channel either way
        }
    }
}
