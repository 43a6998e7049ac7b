package dev.onceproof.storage;

import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The store protocol every exactly-once server store follows, written once: a core's state kept as
 * an {@link OperationLog} of one record per step (the step's operations, so a crash keeps a step
 * whole or drops it whole) after a checkpoint of the whole state.
 *
 * <p>How a concurrent caller saves a step, and why:
 * <ol>
 *   <li>{@link #append} under the core's lock: the journal's order is then the core's order, and
 *       {@link #claimCheckpoint} decides there whether this step's state becomes the next
 *       checkpoint (the caller reads the core's state under the same lock, so the checkpoint is the
 *       state after exactly that sequence number);
 *   <li>{@link #commit} outside the lock: one fsync covers every record appended since the last
 *       (group commit), and no other step waits for it;
 *   <li>{@link #checkpoint} outside the lock, if claimed: the whole state is written only when the
 *       journal has outgrown the last checkpoint ({@link OperationLog#checkpointDue()}), so its cost
 *       per step is amortized, and checkpoints are serialized on a monitor of their own, never the
 *       core's.
 * </ol>
 * Only then may the step's sends leave. A single-threaded caller uses {@link #save}.
 *
 * <p>One claim at a time: while a claimed checkpoint is not yet written, no other step claims one,
 * so the steps that run during a checkpoint's fsyncs do not each write the whole state again.
 *
 * <p>Recovery ({@link #load}) is the checkpoint (or the initial state) with every durable record's
 * operations applied through a {@link Recovery}; an operation that does not apply is a
 * {@link CorruptSnapshotException} naming the log, the record and the operation. No field holds the
 * recovered state: Lincheck's model checking walks the objects reachable from a test instance and
 * cannot read the fields of records, which the states are.
 *
 * @param <S> the checkpointed state
 * @param <O> one operation; a record is a step's list of them
 */
public final class JournalStore<S, O> implements AutoCloseable {

    /** How a state is rebuilt: the initial one, and a checkpoint with operations applied in order. */
    public interface Recovery<S, O> {
        S initial();

        /** A builder started from {@code checkpoint}, which applies operations at the cost of each one's change. */
        Replaying<S, O> from(S checkpoint);
    }

    /** A state under reconstruction. */
    public interface Replaying<S, O> {
        /** Applies one operation; throws (any runtime exception) for one that does not apply. */
        void apply(O operation);

        /** The state reached; may check invariants and throw for a state that breaks them. */
        S freeze();
    }

    /** A {@link Recovery} from a mutable builder type {@code B} of the state's own. */
    public static <S, O, B> Recovery<S, O> recovery(Supplier<S> initial, Function<S, B> open,
            BiConsumer<B, O> apply, Function<B, S> freeze) {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(open, "open");
        Objects.requireNonNull(apply, "apply");
        Objects.requireNonNull(freeze, "freeze");
        return new Recovery<>() {
            @Override
            public S initial() {
                return initial.get();
            }

            @Override
            public Replaying<S, O> from(S checkpoint) {
                B b = open.apply(checkpoint);
                return new Replaying<>() {
                    @Override
                    public void apply(O operation) {
                        apply.accept(b, operation);
                    }

                    @Override
                    public S freeze() {
                        return freeze.apply(b);
                    }
                };
            }
        };
    }

    private final OperationLog<S, List<O>> log;
    private final Recovery<S, O> recovery;
    /** Guarded by this: the highest sequence number a checkpoint was claimed through. */
    private long claimed;
    /** Guarded by this: a claimed checkpoint is not yet written. */
    private boolean pending;
    /** Serializes checkpoint writes; held across their fsyncs, never under a core's lock. */
    private final Object checkpointing = new Object();
    /** Guarded by {@link #checkpointing}: the sequence number of the last checkpoint written. */
    private long taken;

    /**
     * The store over {@code log}; its recovery is tried at once, so a log that does not make a
     * state is refused here (and closed, untouched) rather than at the first {@link #load}.
     */
    public JournalStore(OperationLog<S, List<O>> log, Recovery<S, O> recovery) {
        this.log = Objects.requireNonNull(log, "log");
        this.recovery = Objects.requireNonNull(recovery, "recovery");
        this.claimed = log.recovered().checkpointSeq();
        this.taken = claimed;
        try {
            load();
        } catch (CorruptSnapshotException e) {
            log.close();
            throw e;
        }
    }

    /**
     * The state the log held when this store opened it (the initial one for a log never written):
     * its checkpoint with its operations applied, O(checkpoint + operations) per call.
     */
    public S load() {
        Journal.Recovered<S, List<O>> r = log.recovered();
        Replaying<S, O> b = recovery.from(r.checkpoint().orElseGet(recovery::initial));
        long seq = r.checkpointSeq();
        for (List<O> step : r.operations()) {
            seq++;
            for (O op : step) {
                try {
                    b.apply(op);
                } catch (RuntimeException e) {
                    throw new CorruptSnapshotException(log.where(), "record " + seq + ", operation " + op
                            + ", does not apply to the checkpoint of sequence number " + r.checkpointSeq()
                            + " and the records before it: " + e.getMessage());
                }
            }
        }
        try {
            return b.freeze();
        } catch (RuntimeException e) {
            throw new CorruptSnapshotException(log.where(), "its checkpoint and its " + (seq - r.checkpointSeq())
                    + " records do not make a state: " + e.getMessage());
        }
    }

    /**
     * The core built from the recovered state; a state the core refuses stops with a
     * {@link CorruptSnapshotException} naming the log.
     */
    public <C> C restore(Function<S, C> build) {
        S recovered = load();
        try {
            return build.apply(recovered);
        } catch (IllegalArgumentException e) {
            throw new CorruptSnapshotException(log.where(), "the core refuses its state: " + e.getMessage());
        }
    }

    /**
     * Queues a step's operations as one record (never waits for the disk) and returns the sequence
     * number to {@link #commit} before the step's sends. A step that changed nothing appends nothing
     * and returns the last sequence number: its sends may reflect earlier records.
     */
    public long append(List<O> ops) {
        return ops.isEmpty() ? log.lastSeq() : log.append(ops);
    }

    /**
     * Whether the caller should checkpoint the state after record {@code seq} now: one is due, none
     * is claimed and unwritten, and none was claimed through {@code seq} or later. A true answer is
     * a claim: the caller reads the core's state consistent with {@code seq} (under the lock it
     * appended under) and hands it to {@link #checkpoint}. Never waits for the disk.
     */
    public synchronized boolean claimCheckpoint(long seq) {
        if (pending || seq <= claimed || !log.checkpointDue()) {
            return false;
        }
        claimed = seq;
        pending = true;
        return true;
    }

    /**
     * Writes a claimed checkpoint: {@code state}, the state after record {@code throughSeq}, which
     * must be committed already. One written through a later record meanwhile makes it moot.
     * Releases the claim even when the write fails, so a later step can claim again.
     */
    public void checkpoint(S state, long throughSeq) {
        try {
            synchronized (checkpointing) {
                if (throughSeq > taken) {
                    log.checkpoint(state, throughSeq);
                    taken = throughSeq;
                }
            }
        } finally {
            synchronized (this) {
                pending = false;
            }
        }
    }

    /** Returns once every record up to {@code seq} is durable (one fsync covers a batch). */
    public void commit(long seq) {
        if (seq > 0) {
            log.commit(seq);
        }
    }

    /**
     * For a single-threaded caller: appends and commits the step's record, then checkpoints
     * {@code current} (the state after this step) if one is due. Durable when it returns.
     */
    public void save(List<O> ops, Supplier<S> current) {
        long seq = append(ops);
        commit(seq);
        if (claimCheckpoint(seq)) {
            checkpoint(current.get(), seq);
        }
    }

    /** The sequence number of the last record appended (durable or not). */
    public long lastSeq() {
        return log.lastSeq();
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
