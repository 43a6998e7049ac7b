package dev.onceproof.scmp;

/**
 * The server's estimate of rho, the time a message may spend in transit and still be accepted
 * (paper 2.4). In the standard form of Chaudhuri, Coan and Welch (Fig. 1), the estimate may be any
 * function of the history, but it changes only at a garbage collection; the server tells the
 * estimator about every message and asks for the estimate once per garbage-collection pass.
 *
 * <p>Safety never depends on the estimate (paper 2.3: correctness does not depend on clock
 * synchronization); only how many timely messages are wrongly flagged does. Implementations need
 * not be thread-safe: the sequential core calls them from one thread, the concurrent filter
 * synchronizes its calls.
 */
public interface LifetimeEstimator {

    /**
     * Called for every message the server judges.
     *
     * @param lifetime        server clock minus the message's timestamp (may be negative with skew)
     * @param verdict         what the server decided
     * @param summaryRejected true when the connection had no entry and the timestamp was at or below
     *                        upper: rejected only because its entry was collected (the estimate was
     *                        too small, or a genuine late duplicate)
     */
    void onMessage(long lifetime, Verdict verdict, boolean summaryRejected);

    /**
     * False for an estimator whose {@link #onMessage} does nothing (a constant rho): the concurrent
     * filter then neither calls it nor takes its lock, which otherwise costs every message a lock.
     * Must not change over the estimator's life.
     */
    default boolean observesMessages() {
        return true;
    }

    /** Starts a garbage-collection pass; returns the rho to use for the whole pass (>= 0). */
    long beginGarbageCollection();

    /** The estimate fixed at the last {@link #beginGarbageCollection()} (or the initial one). */
    long current();
}
