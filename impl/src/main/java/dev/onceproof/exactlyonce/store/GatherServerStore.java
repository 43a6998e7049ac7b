package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.GatherOp;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.storage.CorruptSnapshotException;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import dev.onceproof.storage.JournalCodec;
import dev.onceproof.storage.OperationLog;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A Strategy 4-6 server's stable storage for one client (K, D, TS, the session counter, the
 * aDeliver log, the replication round: {@link GatherDurableState}) as an {@link OperationLog}: a
 * checkpoint of the whole state plus, per step, one journal record holding the step's
 * {@link GatherOp}s ({@link ServerEffect.RecordGather}; one record, so a crash keeps a step whole
 * or drops it whole). A step costs its change, not the state: the state is written only at a
 * checkpoint, when the journal has outgrown it ({@link OperationLog#checkpointDue()}).
 *
 * <p>The ordering rule ({@link dev.onceproof.exactlyonce.ServerStep}): a step's record is appended,
 * then committed ({@link #commit}) before its sends and its {@code aDeliver} call leave. A
 * sequential caller does both with {@link #save}; {@link dev.onceproof.exactlyonce.ConcurrentGatherServer}
 * appends under its lock and commits outside it (group commit).
 *
 * <p>Recovery ({@link #load}) is the checkpoint with every durable record's operations applied
 * ({@link GatherDurableState.Builder}: one copy of the checkpoint, then O(change) per operation). A
 * log whose bytes do not decode, whose operations do not apply to its checkpoint, or whose state a
 * core refuses ({@link #restore}) is an error naming the log: a server that forgot its aDeliver
 * log would deliver again.
 */
public final class GatherServerStore implements ConcurrentGatherServer.Durable, AutoCloseable {

    /** The journal's codec: checkpoints as EGS3 states, records as EGO1 operation lists. */
    public static final JournalCodec<GatherDurableState, List<GatherOp>> CODEC = new JournalCodec<>() {
        @Override
        public byte[] encodeOperation(List<GatherOp> ops) {
            return GatherCodec.encodeOps(ops);
        }

        @Override
        public List<GatherOp> decodeOperation(byte[] bytes) {
            return GatherCodec.decodeOps("gather journal record", bytes);
        }

        @Override
        public byte[] encodeCheckpoint(GatherDurableState state) {
            return GatherCodec.encodeServer(state);
        }

        @Override
        public GatherDurableState decodeCheckpoint(byte[] bytes) {
            return GatherCodec.decodeServer("gather checkpoint", bytes);
        }
    };

    private final OperationLog<GatherDurableState, List<GatherOp>> log;
    private final GatherDurableState recovered;
    /** The highest sequence number a checkpoint was taken or claimed through (checkpoints never go back). */
    private long checkpointClaimed;
    private final Object checkpointing = new Object();
    /** Guarded by {@link #checkpointing}: the sequence number of the last checkpoint written. */
    private long checkpointTaken;

    public GatherServerStore(OperationLog<GatherDurableState, List<GatherOp>> log) {
        this.log = Objects.requireNonNull(log, "log");
        this.recovered = recover(log);
        this.checkpointClaimed = log.recovered().checkpointSeq();
        this.checkpointTaken = checkpointClaimed;
    }

    /** The journal in {@code dir} (created if absent), with the journal's default options. */
    public static GatherServerStore open(Path dir) {
        return open(dir, Journal.Options.defaults());
    }

    public static GatherServerStore open(Path dir, Journal.Options options) {
        return new GatherServerStore(Journal.open(dir, CODEC, options));
    }

    /** Over an in-memory log on {@code disk} (test worlds, replay): crash with {@code disk.crash()}, then open again. */
    public static GatherServerStore inMemory(InMemoryOperationLog.Disk disk, Journal.Options options) {
        return new GatherServerStore(InMemoryOperationLog.open(disk, CODEC, options));
    }

    private static GatherDurableState recover(OperationLog<GatherDurableState, List<GatherOp>> log) {
        Journal.Recovered<GatherDurableState, List<GatherOp>> r = log.recovered();
        GatherDurableState.Builder b = GatherDurableState.Builder.from(
                r.checkpoint().orElseGet(GatherDurableState::initial));
        long seq = r.checkpointSeq();
        try {
            for (List<GatherOp> step : r.operations()) {
                seq++;
                for (GatherOp op : step) {
                    b.apply(op);
                }
            }
            return b.freeze();
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new CorruptSnapshotException(log.where(), "record " + seq + " does not apply to the checkpoint "
                    + "of sequence number " + r.checkpointSeq() + " and the records before it: " + e.getMessage());
        }
    }

    /** The state recovered when the log was opened (the initial state for a new log). */
    public GatherDurableState load() {
        return recovered;
    }

    /**
     * The server core built from the recovered state; a state the core refuses stops with a
     * {@link CorruptSnapshotException} naming the log.
     */
    public <C> C restore(Function<GatherDurableState, C> build) {
        try {
            return build.apply(recovered);
        } catch (IllegalArgumentException e) {
            throw new CorruptSnapshotException(log.where(), "the server core refuses its state: " + e.getMessage());
        }
    }

    /**
     * Queues the step's operations as one record (never waits for the disk) and returns the
     * sequence number to {@link #commit} before the step's sends; a step that changed nothing
     * appends nothing and returns the last sequence number (its sends may reflect earlier records).
     */
    public long append(ServerEffect.RecordGather record) {
        return record.ops().isEmpty() ? log.lastSeq() : log.append(record.ops());
    }

    /** Returns once every record up to {@code seq} is durable (one fsync covers a batch). */
    public void commit(long seq) {
        if (seq > 0) {
            log.commit(seq);
        }
    }

    /** The sequence number of the last record appended (durable or not). */
    public long lastSeq() {
        return log.lastSeq();
    }

    /**
     * For a single-threaded caller: appends and commits the step's record, then, if the journal has
     * outgrown the checkpoint, checkpoints {@code current} (the core's state after this step).
     */
    public void save(ServerEffect.RecordGather record, Supplier<GatherDurableState> current) {
        long seq = append(record);
        commit(seq);
        if (claimCheckpoint(seq)) {
            checkpoint(current.get(), seq);
        }
    }

    /**
     * Whether a checkpoint through {@code seq} should be taken now: due, and none taken or claimed
     * through {@code seq} or later. A true answer is a claim: the caller then takes the core's state
     * consistent with {@code seq} and calls {@link #checkpoint}.
     */
    public synchronized boolean claimCheckpoint(long seq) {
        if (seq <= checkpointClaimed || !log.checkpointDue()) {
            return false;
        }
        checkpointClaimed = seq;
        return true;
    }

    /**
     * Makes {@code state}, the core's state after record {@code throughSeq}, the checkpoint; one
     * taken through a later record meanwhile (two claims finishing out of order) makes it moot.
     * Serialized on a monitor of its own, held across the checkpoint's fsyncs: only another
     * checkpoint waits for it, never {@link #claimCheckpoint} (called under a core's lock).
     */
    public void checkpoint(GatherDurableState state, long throughSeq) {
        synchronized (checkpointing) {
            if (throughSeq <= checkpointTaken) {
                return;
            }
            log.checkpoint(state, throughSeq);
            checkpointTaken = throughSeq;
        }
    }

    /** Names the log in error messages. */
    public String where() {
        return log.where();
    }

    public Journal.Stats stats() {
        return log.stats();
    }

    /** Commits what was appended, then closes the log. */
    @Override
    public void close() {
        log.close();
    }
}
