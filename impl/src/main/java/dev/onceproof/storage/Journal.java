package dev.onceproof.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
 * <p><b>Group commit.</b> {@link #append} gives an operation the next sequence number and queues
 * its record in memory; it never waits for the disk. {@link #commit} returns once the operation is
 * durable. The first committer that finds nobody writing becomes the leader: it takes every queued
 * record (under the append lock, only long enough to swap the queue), writes them with one write
 * and forces them with one fsync, then wakes the others. Neither the append lock nor the monitor
 * committers wait on is held while it writes and forces: appenders keep filling the next batch and
 * committers whose records came too late wait for the next leader. So one fsync covers every
 * operation written since the previous one. {@link Commit#PER_OPERATION} is the same protocol with
 * batches of one record, the baseline a benchmark compares against.
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
public final class Journal<S, O> implements AutoCloseable {

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

    /** A sealed segment: forced whole before its successor was created. */
    private record Sealed(Path file, long first, long last) {
    }

    private final Path dir;
    private final JournalCodec<S, O> codec;
    private final Options options;
    private final JournalDisk disk;
    private final Defect defect;
    private final StepHook hook;
    private final FileSnapshotStore checkpoints;
    private final Recovered<S, O> recovered;
    private final long openedAt;

    /** Guards the queue and the sequence numbers; never held across I/O (see the class comment). */
    private final ReentrantLock appendLock = new ReentrantLock();
    private long lastSeq;
    /** Records lastSeq - queue.size() + 1 .. lastSeq, not yet written. */
    private ArrayDeque<byte[]> queue = new ArrayDeque<>();
    private long bytesSinceCheckpoint;
    private boolean closed;

    /** Committers wait on this monitor; it guards the fields below, and is never held across I/O. */
    private final Object sync = new Object();
    private long durableSeq;
    private boolean leading;
    /** Set once, when a write or fsync failed (or on close); read without the monitor by appenders. */
    private volatile RuntimeException failure;
    private long forces;

    // Touched only by the leader (leadership passes through the sync monitor, which orders it).
    private FileChannel channel;
    private Path channelFile;
    private long channelFirst;
    /** The last sequence number written to the channel; the queue's first record is this plus one. */
    private long written;

    /**
     * Serializes checkpoints (and close). Held across the checkpoint's fsyncs, which is safe because
     * only another checkpoint waits for it: appenders and committers never take it.
     */
    private final ReentrantLock checkpointLock = new ReentrantLock();
    private final ArrayDeque<Sealed> sealed = new ArrayDeque<>();
    private long checkpointSeq;
    private long checkpointBytes;
    private long checkpointsWritten;

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
        this.disk = disk;
        this.defect = defect;
        this.hook = hook;
        Files.createDirectories(dir);
        this.checkpoints = new FileSnapshotStore(dir.resolve("checkpoint"));
        JournalRecovery.Found found = JournalRecovery.read(dir, checkpoints, defect != Defect.CRC_NOT_CHECKED,
                defect == Defect.CORRUPTION_TAKEN_FOR_TORN_TAIL);
        this.recovered = decode(found);
        // Every check passed: only now change the directory.
        List<JournalSegment.Scan> segments = found.segments();
        for (int i = 0; i < segments.size() - 1; i++) {
            JournalSegment.Scan s = segments.get(i);
            sealed.add(new Sealed(s.file(), s.first(), s.last()));
            bytesSinceCheckpoint += s.goodEnd() - JournalSegment.HEADER;
        }
        if (segments.isEmpty()) {
            createSegment(found.checkpointSeq() + 1);
        } else {
            JournalSegment.Scan last = segments.get(segments.size() - 1);
            channel = FileChannel.open(last.file(), StandardOpenOption.WRITE);
            channelFile = last.file();
            channelFirst = last.first();
            if (last.goodEnd() < JournalSegment.HEADER) {
                // Torn while being created: it holds nothing; write its header again.
                channel.truncate(0);
                writeFully(JournalSegment.header());
                disk.force(channel, channelFile);
            } else if (last.torn()) {
                channel.truncate(last.goodEnd());
                disk.force(channel, channelFile);
            }
            channel.position(channel.size());
            bytesSinceCheckpoint += channel.size() - JournalSegment.HEADER;
        }
        this.checkpointSeq = found.checkpointSeq();
        this.checkpointBytes = found.checkpoint().map(s -> (long) s.payload().length).orElse(0L);
        this.lastSeq = found.lastSeq();
        this.written = lastSeq;
        this.durableSeq = lastSeq;
        this.openedAt = lastSeq;
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
    public Recovered<S, O> recovered() {
        return recovered;
    }

    public String where() {
        return "journal directory " + dir;
    }

    /**
     * Queues {@code operation} and returns its sequence number; it is durable once
     * {@link #commit(long)} of that number returns. Never waits for the disk.
     */
    public long append(O operation) {
        byte[] payload = codec.encodeOperation(operation);
        appendLock.lock();
        try {
            ensureUsable();
            long seq = lastSeq + 1;
            byte[] record = JournalSegment.record(seq, payload);
            queue.add(record);
            lastSeq = seq;
            bytesSinceCheckpoint += record.length;
            return seq;
        } finally {
            appendLock.unlock();
        }
    }

    /** Returns once every operation up to {@code seq} is durable (forced to the disk). */
    public void commit(long seq) {
        if (seq > lastSeq()) {
            throw new IllegalArgumentException("commit of sequence number " + seq + " in " + where()
                    + ", which has appended only up to " + lastSeq());
        }
        while (!becomeLeaderUnlessDurable(seq)) {
            lead(false);
        }
    }

    /** Appends and commits: returns the operation's sequence number once it is durable. */
    public long appendAndCommit(O operation) {
        long seq = append(operation);
        commit(seq);
        return seq;
    }

    /** Commits everything appended so far. */
    public void commit() {
        commit(lastSeq());
    }

    /** True once {@code seq} is durable; else this thread is now the leader and must {@link #lead}. */
    private boolean becomeLeaderUnlessDurable(long seq) {
        boolean interrupted = false;
        try {
            synchronized (sync) {
                while (true) {
                    if (failure != null) {
                        throw failure;
                    }
                    if (durableSeq >= seq) {
                        return true;
                    }
                    if (!leading) {
                        leading = true;
                        return false;
                    }
                    if (defect == Defect.COMMIT_RETURNS_BEFORE_WRITE && seq != Long.MAX_VALUE) {
                        return true;
                    }
                    try {
                        sync.wait();
                    } catch (InterruptedException e) {
                        // A commit cannot be abandoned halfway: its record may already be written.
                        interrupted = true;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void becomeLeader() {
        if (!becomeLeaderUnlessDurable(Long.MAX_VALUE)) {
            return;
        }
        throw new AssertionError("unreachable");
    }

    /**
     * As the leader (and holding nothing else): writes and forces one batch, then, if
     * {@code roll}, seals the segment and starts the next. Hands leadership back in all cases.
     */
    private void lead(boolean roll) {
        RuntimeException failed = null;
        long done = -1;
        try {
            done = writeBatch();
            if (roll && written >= channelFirst) {
                // The sealed segment was forced whole by writeBatch above: a bad record in a sealed
                // segment is therefore never a torn write, which is what recovery relies on.
                sealed.add(new Sealed(channelFile, channelFirst, written));
                channel.close();
                createSegment(written + 1);
                appendLock.lock();
                try {
                    bytesSinceCheckpoint = queuedBytes();
                } finally {
                    appendLock.unlock();
                }
            }
        } catch (IOException e) {
            failed = new UncheckedIOException(where() + " failed writing or forcing " + channelFile
                    + "; it accepts nothing more: reopen it to recover what is durable", e);
        } catch (RuntimeException e) {
            failed = e;
        } finally {
            synchronized (sync) {
                if (failed != null) {
                    // After a failed fsync the kernel may have dropped the dirty pages: nothing
                    // written since the last good one can be trusted, so stop (as PostgreSQL does).
                    failure = failed;
                } else {
                    durableSeq = Math.max(durableSeq, done);
                }
                leading = false;
                sync.notifyAll();
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Writes and forces the queued records (one, for PER_OPERATION); returns the last one's number. */
    private long writeBatch() throws IOException {
        List<byte[]> batch;
        appendLock.lock();
        try {
            if (options.commit() == Commit.PER_OPERATION && queue.size() > 1) {
                batch = List.of(queue.poll());
            } else {
                batch = new ArrayList<>(queue);
                queue = new ArrayDeque<>();
            }
        } finally {
            appendLock.unlock();
        }
        if (batch.isEmpty()) {
            return written;
        }
        int size = 0;
        for (byte[] r : batch) {
            size += r.length;
        }
        ByteBuffer buf = ByteBuffer.allocate(size);
        batch.forEach(buf::put);
        writeFully(buf.flip());
        boolean holdLock = defect == Defect.APPEND_LOCK_HELD_ACROSS_FORCE;
        if (holdLock) {
            appendLock.lock();
        }
        try {
            if (defect != Defect.ACKNOWLEDGED_WITHOUT_FORCE) {
                disk.force(channel, channelFile);
            }
        } finally {
            if (holdLock) {
                appendLock.unlock();
            }
        }
        synchronized (sync) {
            forces++;
        }
        written += batch.size();
        return written;
    }

    private long queuedBytes() {
        long n = 0;
        for (byte[] r : queue) {
            n += r.length;
        }
        return n;
    }

    private void writeFully(ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            channel.write(buf);
        }
    }

    /** A new empty segment, its header and its name durable before any record goes into it. */
    private void createSegment(long first) throws IOException {
        channelFile = dir.resolve(JournalSegment.name(first));
        channelFirst = first;
        channel = FileChannel.open(channelFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        writeFully(JournalSegment.header());
        disk.force(channel, channelFile);
        disk.forceDirectory(dir);
    }

    /** True when the journal has outgrown the last checkpoint by {@link Options#checkpointRatio}. */
    public boolean checkpointDue() {
        long base = Math.max(checkpointBytes, options.checkpointFloorBytes());
        appendLock.lock();
        try {
            return bytesSinceCheckpoint > options.checkpointRatio() * base;
        } finally {
            appendLock.unlock();
        }
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
            commit(throughSeq);
            becomeLeader();
            lead(true);
            hook.after(Step.SEGMENT_ROLLED, channelFile); // only a checkpoint rolls, and we hold the checkpoint lock
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
            Sealed s = sealed.poll();
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
                disk.forceDirectory(dir);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot force journal directory " + dir + " after deleting segments", e);
            }
            hook.after(Step.DIRECTORY_FORCED, dir);
        }
    }

    public long lastSeq() {
        appendLock.lock();
        try {
            return lastSeq;
        } finally {
            appendLock.unlock();
        }
    }

    public long checkpointSeq() {
        checkpointLock.lock();
        try {
            return checkpointSeq;
        } finally {
            checkpointLock.unlock();
        }
    }

    public Stats stats() {
        long appended = lastSeq() - openedAt;
        long cps;
        checkpointLock.lock();
        try {
            cps = checkpointsWritten;
        } finally {
            checkpointLock.unlock();
        }
        synchronized (sync) {
            return new Stats(appended, durableSeq, forces, cps);
        }
    }

    private void ensureUsable() {
        if (closed) {
            throw new IllegalStateException(where() + " is closed");
        }
        RuntimeException f = failure;
        if (f != null) {
            throw f;
        }
    }

    /** Commits what was appended, then closes. */
    @Override
    public void close() {
        checkpointLock.lock();
        try {
            appendLock.lock();
            try {
                if (closed) {
                    return;
                }
            } finally {
                appendLock.unlock();
            }
            try {
                commit();
            } finally {
                appendLock.lock();
                try {
                    closed = true;
                } finally {
                    appendLock.unlock();
                }
                abandon();
            }
        } finally {
            checkpointLock.unlock();
        }
    }

    /** Closes the file without writing what is queued: the process died. Tests only. */
    void abandon() {
        boolean interrupted = false;
        synchronized (sync) {
            while (leading) {
                try {
                    sync.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (failure == null) {
                failure = new IllegalStateException(where() + " is closed");
            }
            sync.notifyAll();
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing a dead journal; nothing more to lose
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
