package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerOp;
import dev.onceproof.storage.CorruptSnapshotException;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import dev.onceproof.storage.JournalCodec;
import dev.onceproof.storage.OperationLog;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * {@link #append} under the core's lock (the journal's order is then the core's, and a checkpoint
 * it takes is the core's state at that sequence number), then {@link #complete} outside it (the
 * commit, one fsync for every record appended since the last, and the checkpoint if one was due),
 * and only then the step's sends. A single-threaded caller uses {@link #save}.
 */
public final class ServerStore implements AutoCloseable {

    /** What {@link #append} did: the sequence number to commit and, when one was due, a checkpoint. */
    public record Appended(long seq, Optional<ServerDurableState> checkpoint) {
    }

    private final OperationLog<ServerDurableState, List<ServerOp>> log;
    // No field holds a record (the recovered state is rebuilt by load()): Lincheck's model checking
    // walks the objects reachable from a test instance and cannot read a record's fields.
    /** Set while a checkpoint is taken and not yet written, so concurrent steps take one, not many. */
    private final AtomicBoolean checkpointPending = new AtomicBoolean();
    /**
     * Serializes checkpoint writes (never taken under the core's lock, so no step waits for the
     * checkpoint's fsyncs); guards {@link #checkpointed} writes.
     */
    private final Object checkpointWrite = new Object();
    /** The sequence number of the last checkpoint written by this store. */
    private volatile long checkpointed;

    /** The store over {@code log}, recovering its state (checkpoint plus operations) at once. */
    public ServerStore(OperationLog<ServerDurableState, List<ServerOp>> log) {
        this.log = Objects.requireNonNull(log, "log");
        this.checkpointed = log.recovered().checkpointSeq();
        try {
            recover(); // a log that does not make a state is refused at once
        } catch (CorruptSnapshotException e) {
            log.close(); // nothing was appended; the files stay as they are
            throw e;
        }
    }

    private ServerDurableState recover() {
        Journal.Recovered<ServerDurableState, List<ServerOp>> r = log.recovered();
        try {
            ServerDurableState.Builder b = r.checkpoint().orElseGet(ServerDurableState::initial).toBuilder();
            long seq = r.checkpointSeq();
            for (List<ServerOp> step : r.operations()) {
                seq++;
                for (ServerOp op : step) {
                    try {
                        b.apply(op);
                    } catch (RuntimeException e) {
                        throw new IllegalArgumentException("record " + seq + ", operation " + op + ": " + e.getMessage(), e);
                    }
                }
            }
            return b.freeze();
        } catch (IllegalArgumentException e) {
            throw new CorruptSnapshotException(log.where(), "its checkpoint and operations do not make a server state: "
                    + e.getMessage());
        }
    }

    /** The codec of a server journal (checkpoints tag ESV3, operation records tag ESO1). */
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
        return recover();
    }

    /**
     * The server core built from the recovered state; a state the core refuses (a note id outside
     * its strategy's range, say) stops with a {@link CorruptSnapshotException} naming the log.
     */
    public <C> C restore(Function<ServerDurableState, C> build) {
        ServerDurableState recovered = recover();
        try {
            return build.apply(recovered);
        } catch (IllegalArgumentException e) {
            throw new CorruptSnapshotException(log.where(), "the server core refuses its state: " + e.getMessage());
        }
    }

    /**
     * Appends the step's operations (nothing for a step that changed nothing) and returns the
     * sequence number its sends must see durable: the last appended, which covers what earlier
     * steps changed. Call under the core's lock; {@code state} is the core's durable state, read
     * only when a checkpoint is due (then it is the state at that sequence number).
     */
    public Appended append(ServerEffect.Record record, Supplier<ServerDurableState> state) {
        long seq = record.ops().isEmpty() ? log.lastSeq() : log.append(record.ops());
        if (seq <= checkpointed || !log.checkpointDue() || !checkpointPending.compareAndSet(false, true)) {
            return new Appended(seq, Optional.empty());
        }
        return new Appended(seq, Optional.of(state.get()));
    }

    /** The sequence number of the last operation appended: what a step without a record must commit. */
    public long lastSeq() {
        return log.lastSeq();
    }

    /** Outside the core's lock: makes {@code a}'s record durable, then writes its checkpoint if it took one. */
    public void complete(Appended a) {
        log.commit(a.seq());
        if (a.checkpoint().isPresent()) {
            try {
                synchronized (checkpointWrite) {
                    if (a.seq() > checkpointed) {
                        log.checkpoint(a.checkpoint().get(), a.seq());
                        checkpointed = a.seq();
                    }
                }
            } finally {
                checkpointPending.set(false);
            }
        }
    }

    /** One thread, one core: append, commit, and checkpoint when due. Durable when it returns. */
    public void save(ServerEffect.Record record, Supplier<ServerDurableState> state) {
        complete(append(record, state));
    }

    /** Makes every operation appended so far durable (a step without a record, before its sends). */
    public void commit(long seq) {
        log.commit(seq);
    }

    public String where() {
        return log.where();
    }

    public Journal.Stats stats() {
        return log.stats();
    }

    @Override
    public void close() {
        log.close();
    }
}
