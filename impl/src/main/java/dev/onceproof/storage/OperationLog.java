package dev.onceproof.storage;

/**
 * Incremental durability as a core's store sees it: a checkpoint of the whole state plus the
 * operations after it. {@link Journal} is the real one (files, CRCs, group commit, fsync);
 * {@link InMemoryOperationLog} keeps the same bytes in memory, through the same codec, for the test
 * worlds that run many schedules and crash their nodes between any two steps.
 *
 * <p>The contract a store relies on, which both keep: an operation is durable once
 * {@link #commit(long)} of its sequence number (or a later one) has returned; a crash keeps every
 * durable operation, in order, and may drop any suffix of the rest; recovery is
 * {@link #recovered()}: the checkpoint and every operation after it.
 *
 * @param <S> the checkpointed state
 * @param <O> an operation: the change one step makes to that state
 */
public interface OperationLog<S, O> extends AutoCloseable {

    /** What the log held when it was opened. */
    Journal.Recovered<S, O> recovered();

    /** Names the log in error messages ("journal directory /x", "in-memory log of server B"). */
    String where();

    /** Queues {@code operation} and returns its sequence number; never waits for the disk. */
    long append(O operation);

    /** Returns once every operation up to {@code seq} is durable. */
    void commit(long seq);

    /** The sequence number of the last operation appended (durable or not). */
    long lastSeq();

    /** True when the operations since the last checkpoint have outgrown it (see {@link Journal.Options}). */
    boolean checkpointDue();

    /**
     * Makes {@code state}, the state after every operation up to {@code throughSeq}, the checkpoint,
     * and forgets the operations it covers.
     */
    void checkpoint(S state, long throughSeq);

    /** Counters since open. */
    Journal.Stats stats();

    /** Commits what was appended, then closes. */
    @Override
    void close();
}
