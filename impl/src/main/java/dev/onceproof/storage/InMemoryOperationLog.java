package dev.onceproof.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An {@link OperationLog} in memory, for the test worlds (jqwik schedules, simulations) that crash
 * nodes between any two steps many times per second. Everything passes through the codec as the
 * journal's bytes do, so a codec that loses a field fails here as it would on disk, and a node
 * recovers through the same store classes as in the SIGKILL runs.
 *
 * <p>The bytes live in a {@link Disk}, which outlives the log: a test crashes a node with
 * {@link Disk#crash()} (the operations appended but not committed are lost, as a process killed
 * before its fsync loses them) and reopens the log on the same disk. The checkpoint rule is the
 * journal's ({@link Journal.Options}), counted in encoded bytes.
 */
public final class InMemoryOperationLog<S, O> implements OperationLog<S, O> {

    /** What survives a crash: the checkpoint and the committed operations, as bytes. */
    public static final class Disk {
        private final String name;
        private byte[] checkpoint;
        private long checkpointSeq;
        private final List<byte[]> durable = new ArrayList<>();
        private long durableBytes;
        /** Appended, not yet committed: lost by {@link #crash()}. */
        private final List<byte[]> pending = new ArrayList<>();
        /** The log that writes to this disk now; a crash or reopen closes the old one. */
        private InMemoryOperationLog<?, ?> owner;

        public Disk(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** The process died: every operation not committed is gone, and the open log is dead. */
        public synchronized void crash() {
            pending.clear();
            owner = null;
        }

        /** Operations durable after the checkpoint (what recovery would replay). */
        public synchronized int durableOperations() {
            return durable.size();
        }

        /** Bytes the disk holds now: checkpoint and durable operations. */
        public synchronized long bytes() {
            return (checkpoint == null ? 0 : checkpoint.length) + durableBytes;
        }

        @Override
        public String toString() {
            return "in-memory log " + name;
        }
    }

    private final Disk disk;
    private final JournalCodec<S, O> codec;
    private final Journal.Options options;
    private final Journal.Recovered<S, O> recovered;
    private final long openedAt;
    private long forces;
    private long checkpoints;

    private InMemoryOperationLog(Disk disk, JournalCodec<S, O> codec, Journal.Options options) {
        this.disk = disk;
        this.codec = codec;
        this.options = options;
        synchronized (disk) {
            disk.pending.clear(); // never committed: a previous owner's crash left them unforced
            disk.owner = this;
            Optional<S> state = Optional.empty();
            if (disk.checkpoint != null) {
                state = Optional.of(decode(() -> codec.decodeCheckpoint(disk.checkpoint), "checkpoint"));
            }
            List<O> ops = new ArrayList<>(disk.durable.size());
            for (int i = 0; i < disk.durable.size(); i++) {
                byte[] b = disk.durable.get(i);
                long seq = disk.checkpointSeq + 1 + i;
                ops.add(decode(() -> codec.decodeOperation(b), "operation " + seq));
            }
            this.recovered = new Journal.Recovered<>(state, disk.checkpointSeq, List.copyOf(ops));
            this.openedAt = recovered.lastSeq();
        }
    }

    /** Opens the log on {@code disk}: what it holds is {@link #recovered()}. */
    public static <S, O> InMemoryOperationLog<S, O> open(Disk disk, JournalCodec<S, O> codec, Journal.Options options) {
        return new InMemoryOperationLog<>(Objects.requireNonNull(disk, "disk"), Objects.requireNonNull(codec, "codec"),
                Objects.requireNonNull(options, "options"));
    }

    private <T> T decode(java.util.function.Supplier<T> decoder, String what) {
        try {
            return decoder.get();
        } catch (RuntimeException e) {
            throw new IllegalStateException(disk + " is corrupt: its " + what + " does not decode: " + e.getMessage(), e);
        }
    }

    private void checkOwner() {
        if (disk.owner != this) {
            throw new IllegalStateException(disk + " was crashed or reopened: this log is closed");
        }
    }

    @Override
    public Journal.Recovered<S, O> recovered() {
        return recovered;
    }

    @Override
    public String where() {
        return disk.toString();
    }

    @Override
    public long append(O operation) {
        byte[] bytes = codec.encodeOperation(operation);
        synchronized (disk) {
            checkOwner();
            disk.pending.add(bytes);
            return lastSeqLocked();
        }
    }

    private long lastSeqLocked() {
        return disk.checkpointSeq + disk.durable.size() + disk.pending.size();
    }

    @Override
    public void commit(long seq) {
        synchronized (disk) {
            checkOwner();
            if (seq > lastSeqLocked()) {
                throw new IllegalArgumentException("commit of sequence number " + seq + " in " + where()
                        + ", which has appended only up to " + lastSeqLocked());
            }
            long durableSeq = disk.checkpointSeq + disk.durable.size();
            if (seq <= durableSeq) {
                return;
            }
            // As group commit does: one "force" makes everything appended so far durable.
            for (byte[] b : disk.pending) {
                disk.durable.add(b);
                disk.durableBytes += b.length;
            }
            disk.pending.clear();
            forces++;
        }
    }

    @Override
    public long lastSeq() {
        synchronized (disk) {
            return lastSeqLocked();
        }
    }

    @Override
    public boolean checkpointDue() {
        synchronized (disk) {
            long base = Math.max(disk.checkpoint == null ? 0 : disk.checkpoint.length, options.checkpointFloorBytes());
            return disk.durableBytes > options.checkpointRatio() * base;
        }
    }

    @Override
    public void checkpoint(S state, long throughSeq) {
        byte[] payload = codec.encodeCheckpoint(state);
        synchronized (disk) {
            checkOwner();
            if (throughSeq > lastSeqLocked()) {
                throw new IllegalArgumentException("checkpoint through sequence number " + throughSeq + " in "
                        + where() + ", which has appended only up to " + lastSeqLocked());
            }
            if (throughSeq < disk.checkpointSeq) {
                throw new SnapshotBackwardsException(where(), throughSeq, disk.checkpointSeq);
            }
            if (throughSeq == disk.checkpointSeq) {
                return;
            }
            commit(throughSeq);
            int covered = (int) (throughSeq - disk.checkpointSeq);
            for (int i = 0; i < covered; i++) {
                disk.durableBytes -= disk.durable.remove(0).length;
            }
            disk.checkpoint = payload;
            disk.checkpointSeq = throughSeq;
            checkpoints++;
        }
    }

    @Override
    public Journal.Stats stats() {
        synchronized (disk) {
            return new Journal.Stats(lastSeqLocked() - openedAt, disk.checkpointSeq + disk.durable.size(), forces,
                    checkpoints);
        }
    }

    @Override
    public void close() {
        synchronized (disk) {
            if (disk.owner == this) {
                commit(lastSeqLocked());
                disk.owner = null;
            }
        }
    }
}
