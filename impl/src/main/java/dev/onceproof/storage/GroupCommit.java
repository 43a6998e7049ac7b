package dev.onceproof.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The journal's write path: sequence numbers, the queue of records not yet written, and group
 * commit into the current segment.
 *
 * <p>{@link #append} numbers a record and queues it in memory; it never waits for the disk.
 * {@link #commit} returns once the record is durable. The first committer that finds nobody writing
 * becomes the leader: it takes every queued record (under the append lock, only long enough to swap
 * the queue), writes them with one write and forces them with one fsync, then wakes the committers
 * that fsync made durable, and one more to lead the next batch (see {@link #handBack}).
 * Neither the append lock nor the monitor is held while it writes and forces:
 * appenders keep filling the next batch, and committers whose records came too late wait for the
 * next leader. So one fsync covers every record written since the previous one.
 * {@link Journal.Commit#PER_OPERATION} is the same protocol with batches of one record.
 *
 * <p>Lock order: append lock, then the monitor; neither is held while waiting for the other's
 * holder to do I/O, and the leader holds neither while it writes.
 */
final class GroupCommit {

    /** A sealed segment: forced whole before its successor was created. */
    record Sealed(Path file, long first, long last) {
    }

    private final Path dir;
    private final Journal.Commit mode;
    private final JournalDisk disk;
    private final Journal.Defect defect;

    /** Guards the queue and the sequence numbers; never held across I/O. */
    private final ReentrantLock appendLock = new ReentrantLock();
    private long lastSeq;
    /** Records {@code lastSeq - queue.size() + 1 .. lastSeq}, not yet written. */
    private ArrayDeque<byte[]> queue = new ArrayDeque<>();
    /** Record bytes appended since the segment was last rolled (what a checkpoint would compact). */
    private long bytesSinceRoll;
    private boolean closed;

    /** Guards the fields below; never held across I/O. Committers park outside it (see {@link #handBack}). */
    private final Object sync = new Object();
    private long durableSeq;
    private boolean leading;
    /** Committers parked until their record is durable or they may lead, lowest sequence number first. */
    private final PriorityQueue<Waiter> waiters = new PriorityQueue<>();
    /** Set once, when a write or fsync failed (or on close); read without the monitor by appenders. */
    private volatile RuntimeException failure;
    private long forces;

    // Touched only by the leader; leadership passes through the monitor, which orders the accesses.
    private FileChannel channel;
    private Path channelFile;
    private long channelFirst;
    /** The last sequence number written to the channel; the queue's first record is this plus one. */
    private long written;

    /**
     * @param channel the current segment, open for writing and positioned at its end
     * @param lastSeq the last sequence number in it (all durable)
     */
    GroupCommit(Path dir, Journal.Commit mode, JournalDisk disk, Journal.Defect defect, FileChannel channel,
            Path file, long first, long lastSeq, long bytes) {
        this.dir = dir;
        this.mode = mode;
        this.disk = disk;
        this.defect = defect;
        this.channel = channel;
        this.channelFile = file;
        this.channelFirst = first;
        this.lastSeq = lastSeq;
        this.written = lastSeq;
        this.durableSeq = lastSeq;
        this.bytesSinceRoll = bytes;
    }

    /** A new empty segment whose header and name are durable before any record goes into it. */
    static FileChannel createSegment(Path dir, long first, JournalDisk disk) throws IOException {
        Path file = dir.resolve(JournalSegment.name(first));
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        writeFully(ch, JournalSegment.header());
        disk.force(ch, file);
        disk.forceDirectory(dir);
        return ch;
    }

    static void writeFully(FileChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    void forceDirectory() throws IOException {
        disk.forceDirectory(dir);
    }

    String where() {
        return "journal directory " + dir;
    }

    long append(byte[] payload) {
        appendLock.lock();
        try {
            if (closed) {
                throw new IllegalStateException(where() + " is closed");
            }
            RuntimeException f = failure;
            if (f != null) {
                throw f;
            }
            long seq = lastSeq + 1;
            byte[] record = JournalSegment.record(seq, payload);
            queue.add(record);
            lastSeq = seq;
            bytesSinceRoll += record.length;
            return seq;
        } finally {
            appendLock.unlock();
        }
    }

    long lastSeq() {
        appendLock.lock();
        try {
            return lastSeq;
        } finally {
            appendLock.unlock();
        }
    }

    long bytesSinceRoll() {
        appendLock.lock();
        try {
            return bytesSinceRoll;
        } finally {
            appendLock.unlock();
        }
    }

    void commit(long seq) {
        while (!becomeLeaderUnlessDurable(seq)) {
            lead(false);
        }
    }

    /**
     * As the leader: forces what is queued into the current segment, seals it and starts the next.
     * Returns the sealed segment, or null if the current one held no record (nothing to seal).
     */
    Sealed roll() {
        if (becomeLeaderUnlessDurable(Long.MAX_VALUE)) {
            throw new AssertionError("no sequence number is durable up to Long.MAX_VALUE");
        }
        return lead(true);
    }

    long durableSeq() {
        synchronized (sync) {
            return durableSeq;
        }
    }

    long forces() {
        synchronized (sync) {
            return forces;
        }
    }

    /**
     * A parked committer. {@code queued} (under the monitor) says it is in {@link #waiters}: whoever
     * polls it clears the flag and unparks it, so a wake-up never needs a search of the queue.
     */
    private static final class Waiter implements Comparable<Waiter> {
        final long seq;
        final Thread thread = Thread.currentThread();
        boolean queued;

        Waiter(long seq) {
            this.seq = seq;
        }

        @Override
        public int compareTo(Waiter o) {
            return Long.compare(seq, o.seq);
        }
    }

    /** True once {@code seq} is durable; else this thread is now the leader and must {@link #lead}. */
    private boolean becomeLeaderUnlessDurable(long seq) {
        Waiter me = null;
        boolean interrupted = false;
        try {
            while (true) {
                synchronized (sync) {
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
                    if (defect == Journal.Defect.COMMIT_RETURNS_BEFORE_WRITE && seq != Long.MAX_VALUE) {
                        return true;
                    }
                    if (me == null) {
                        me = new Waiter(seq);
                    }
                    if (!me.queued) {
                        me.queued = true;
                        waiters.add(me);
                    }
                }
                // Parked outside the monitor. An unpark that comes before the park is not lost (it
                // leaves a permit); a spurious return finds the state unchanged and parks again,
                // still queued. Every path out of the loop re-checks the state under the monitor.
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    // A commit cannot be abandoned halfway: its record may already be written. The
                    // flag is cleared (else park would return at once) and restored on the way out.
                    interrupted = true;
                }
            }
        } finally {
            if (me != null && me.queued) {
                // Leaving by a throw while still queued: nobody must count on this thread.
                synchronized (sync) {
                    if (me.queued) {
                        waiters.remove(me);
                        me.queued = false;
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Under the monitor, when the leader is done (or the journal failed): wakes every committer whose
     * record is now durable, and, if any remain, the one with the lowest sequence number to lead the
     * next batch. The others stay parked; none of them could return before that next fsync anyway.
     *
     * <p>Why this cannot weaken durability: it decides only whom to wake, never what a woken thread
     * does. A committer returns only after it reads {@code durableSeq >= seq} under the monitor, and
     * {@code durableSeq} is raised only here, by the leader, after its fsync covered that record.
     *
     * <p>Why no committer is left waiting for ever: a committer parks only while {@code leading} is
     * set, queued before it releases the monitor, so the leader's hand-back sees it. Each hand-back
     * either wakes it or wakes another remaining committer, which on waking becomes the leader, or
     * finds one (whose hand-back comes later), or finds its record durable, which only a later
     * hand-back makes so. After a failure every committer is woken, to throw.
     */
    private void handBack() {
        leading = false;
        while (!waiters.isEmpty() && (failure != null || waiters.peek().seq <= durableSeq)) {
            wake(waiters.poll());
        }
        if (!waiters.isEmpty()) {
            wake(waiters.poll());
        }
    }

    private static void wake(Waiter w) {
        w.queued = false;
        LockSupport.unpark(w.thread);
    }

    /**
     * As the leader (and holding nothing else): writes and forces one batch, then, if {@code roll},
     * seals the segment and starts the next. Hands leadership back in all cases.
     */
    private Sealed lead(boolean roll) {
        RuntimeException failed = null;
        long done = -1;
        Sealed sealed = null;
        try {
            done = writeBatch();
            if (roll && written >= channelFirst) {
                // writeBatch forced the segment whole: a bad record in a sealed segment is therefore
                // never a torn write, which recovery relies on.
                sealed = new Sealed(channelFile, channelFirst, written);
                channel.close();
                channelFirst = written + 1;
                channelFile = dir.resolve(JournalSegment.name(channelFirst));
                channel = createSegment(dir, channelFirst, disk);
                appendLock.lock();
                try {
                    bytesSinceRoll = 0;
                    for (byte[] r : queue) {
                        bytesSinceRoll += r.length;
                    }
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
                handBack();
            }
        }
        if (failed != null) {
            throw failed;
        }
        return sealed;
    }

    /** Writes and forces the queued records (one, for PER_OPERATION); returns the last one's number. */
    private long writeBatch() throws IOException {
        List<byte[]> batch;
        appendLock.lock();
        try {
            if (mode == Journal.Commit.PER_OPERATION && queue.size() > 1) {
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
        writeFully(channel, buf.flip());
        boolean holdLock = defect == Journal.Defect.APPEND_LOCK_HELD_ACROSS_FORCE;
        if (holdLock) {
            appendLock.lock();
        }
        try {
            if (defect != Journal.Defect.ACKNOWLEDGED_WITHOUT_FORCE) {
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

    /** Commits everything appended, then closes; later appends and commits fail. */
    void close() {
        appendLock.lock();
        try {
            if (closed) {
                return;
            }
        } finally {
            appendLock.unlock();
        }
        try {
            commit(lastSeq());
        } finally {
            appendLock.lock();
            try {
                closed = true;
            } finally {
                appendLock.unlock();
            }
            abandon();
        }
    }

    /** Closes the file without writing what is queued: the process died (tests), or after close. */
    void abandon() {
        // Waits to lead, so that no leader is writing when the channel closes. If the journal has
        // failed already, nobody leads: the failed leader handed back, and no one leads after that.
        try {
            if (becomeLeaderUnlessDurable(Long.MAX_VALUE)) {
                throw new AssertionError("no sequence number is durable up to Long.MAX_VALUE");
            }
        } catch (RuntimeException alreadyFailed) {
            if (alreadyFailed != failure) {
                throw alreadyFailed;
            }
            // the failure stands; the waiters it woke throw it
        }
        synchronized (sync) {
            if (failure == null) {
                failure = new IllegalStateException(where() + " is closed");
            }
            handBack(); // with the failure set, wakes every waiter, to throw
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing a dead journal; nothing more to lose
        }
    }
}
