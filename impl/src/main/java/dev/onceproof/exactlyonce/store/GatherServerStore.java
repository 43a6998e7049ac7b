package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.GatherOp;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.storage.CorruptSnapshotException;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import dev.onceproof.storage.JournalCodec;
import dev.onceproof.storage.JournalStore;
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
 * log would deliver again. The protocol (claims, group commit, checkpoints off the core's lock) is
 * {@link JournalStore}'s, shared with the Strategy 0-3 store; this class adds the codec and the
 * recovery of the gather state.
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

    /** Recovery: the checkpoint copied once into a builder, each operation applied at its change's cost. */
    static final JournalStore.Recovery<GatherDurableState, GatherOp> RECOVERY = JournalStore.recovery(
            GatherDurableState::initial, GatherDurableState.Builder::from, GatherDurableState.Builder::apply,
            GatherDurableState.Builder::freeze);

    private final JournalStore<GatherDurableState, GatherOp> store;

    public GatherServerStore(OperationLog<GatherDurableState, List<GatherOp>> log) {
        this.store = new JournalStore<>(Objects.requireNonNull(log, "log"), RECOVERY);
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

    /** The state recovered when the log was opened (the initial state for a new log). */
    public GatherDurableState load() {
        return store.load();
    }

    /**
     * The server core built from the recovered state; a state the core refuses stops with a
     * {@link CorruptSnapshotException} naming the log.
     */
    public <C> C restore(Function<GatherDurableState, C> build) {
        return store.restore(build);
    }

    /**
     * Queues the step's operations as one record (never waits for the disk) and returns the
     * sequence number to {@link #commit} before the step's sends; a step that changed nothing
     * appends nothing and returns the last sequence number (its sends may reflect earlier records).
     */
    @Override
    public long append(ServerEffect.RecordGather record) {
        return store.append(record.ops());
    }

    /** Returns once every record up to {@code seq} is durable (one fsync covers a batch). */
    @Override
    public void commit(long seq) {
        store.commit(seq);
    }

    /** The sequence number of the last record appended (durable or not). */
    @Override
    public long lastSeq() {
        return store.lastSeq();
    }

    /**
     * For a single-threaded caller: appends and commits the step's record, then, if the journal has
     * outgrown the checkpoint, checkpoints {@code current} (the core's state after this step).
     */
    public void save(ServerEffect.RecordGather record, Supplier<GatherDurableState> current) {
        store.save(record.ops(), current);
    }

    /** See {@link JournalStore#claimCheckpoint}: called under the core's lock, never waits for the disk. */
    @Override
    public boolean claimCheckpoint(long seq) {
        return store.claimCheckpoint(seq);
    }

    /** See {@link JournalStore#checkpoint}: outside the core's lock, after {@code throughSeq} is committed. */
    @Override
    public void checkpoint(GatherDurableState state, long throughSeq) {
        store.checkpoint(state, throughSeq);
    }

    /** Names the log in error messages. */
    public String where() {
        return store.where();
    }

    public Journal.Stats stats() {
        return store.stats();
    }

    /** Commits what was appended, then closes the log. */
    @Override
    public void close() {
        store.close();
    }
}
