package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ConcurrentServer;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerOp;
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
 * A Strategy 0-3 server's stable storage for one client (K, D, the counter, removals, the sync
 * round, the Condition 1 confirmations and the replication round, notes Z13) as an
 * {@link OperationLog}: a checkpoint of the {@link ServerDurableState} plus one journal record per
 * step, the step's {@link ServerOp}s (so a step's changes survive a crash all or none). A step costs
 * the size of its change; the whole state is written only as a checkpoint, when the journal has
 * outgrown the last one ({@link OperationLog#checkpointDue()}), so its cost per step is amortized.
 *
 * <p>How a caller saves a step ({@link dev.onceproof.exactlyonce.ServerStep}'s ordering rule):
 * {@link #append} and {@link #claimCheckpoint} under the core's lock (the journal's order is then
 * the core's, and a checkpoint it claims is the core's state at that sequence number), then
 * {@link #commit} outside it (one fsync for every record appended since the last) and
 * {@link #checkpoint} if one was claimed, and only then the step's sends
 * ({@link dev.onceproof.exactlyonce.ConcurrentServer} does so). A single-threaded caller uses
 * {@link #save}. The protocol
 * (claims, group commit, checkpoints off the core's lock) is {@link JournalStore}'s, shared with
 * the Strategy 4-6 store; this class adds the server state's codec and recovery.
 */
public final class ServerStore implements ConcurrentServer.Store<ServerDurableState>, AutoCloseable {

    /** Recovery: the checkpoint copied once into a builder, each operation applied at its change's cost. */
    static final JournalStore.Recovery<ServerDurableState, ServerOp> RECOVERY = JournalStore.recovery(
            ServerDurableState::initial, ServerDurableState::toBuilder, ServerDurableState.Builder::apply,
            ServerDurableState.Builder::freeze);

    private final JournalStore<ServerDurableState, ServerOp> store;

    /** The store over {@code log}, recovering its state (checkpoint plus operations) at once. */
    public ServerStore(OperationLog<ServerDurableState, List<ServerOp>> log) {
        this.store = new JournalStore<>(Objects.requireNonNull(log, "log"), RECOVERY);
    }

    /** The codec of a server journal (checkpoints tag ESV4, operation records tag ESO1). */
    public static JournalCodec<ServerDurableState, List<ServerOp>> codec() {
        return StateCodec.serverJournal();
    }

    /** The store over the journal in directory {@code dir} (created if absent). */
    public static ServerStore open(Path dir) {
        return new ServerStore(Journal.open(dir, codec(), Journal.Options.defaults()));
    }

    /** The store over an in-memory log on {@code disk} (test worlds, replay): reopen it after {@code disk.crash()}. */
    public static ServerStore inMemory(InMemoryOperationLog.Disk disk, Journal.Options options) {
        return new ServerStore(InMemoryOperationLog.open(disk, codec(), options));
    }

    public static ServerStore inMemory(InMemoryOperationLog.Disk disk) {
        return inMemory(disk, Journal.Options.defaults());
    }

    /**
     * The state the log held when this store opened it (the initial one for a log never written):
     * its checkpoint with its operations applied, O(checkpoint + operations) per call.
     */
    public ServerDurableState load() {
        return store.load();
    }

    /**
     * The server core built from the recovered state; a state the core refuses (a note id outside
     * its strategy's range, say) stops with a {@link CorruptSnapshotException} naming the log.
     */
    public <C> C restore(Function<ServerDurableState, C> build) {
        return store.restore(build);
    }

    /**
     * Appends the step's operations (nothing for a step that changed nothing) and returns the
     * sequence number its sends must see durable: the last appended, which covers what earlier
     * steps changed. Call under the core's lock; never waits for the disk.
     */
    public long append(ServerEffect.Record record) {
        return store.append(record.ops());
    }

    /** See {@link JournalStore#claimCheckpoint}: called under the core's lock, never waits for the disk. */
    @Override
    public boolean claimCheckpoint(long seq) {
        return store.claimCheckpoint(seq);
    }

    /** See {@link JournalStore#checkpoint}: outside the core's lock, after {@code throughSeq} is committed. */
    @Override
    public void checkpoint(ServerDurableState state, long throughSeq) {
        store.checkpoint(state, throughSeq);
    }

    /** The sequence number of the last operation appended: what a step without a record must commit. */
    @Override
    public long lastSeq() {
        return store.lastSeq();
    }

    /** One thread, one core: append, commit, and checkpoint when due. Durable when it returns. */
    public void save(ServerEffect.Record record, Supplier<ServerDurableState> state) {
        store.save(record.ops(), state);
    }

    /** Makes every operation appended so far durable (a step without a record, before its sends). */
    @Override
    public void commit(long seq) {
        store.commit(seq);
    }

    public String where() {
        return store.where();
    }

    public Journal.Stats stats() {
        return store.stats();
    }

    @Override
    public void close() {
        store.close();
    }
}
