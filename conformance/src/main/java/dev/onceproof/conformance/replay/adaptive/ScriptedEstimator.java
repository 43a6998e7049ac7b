package dev.onceproof.conformance.replay.adaptive;

import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.Verdict;

/**
 * The estimator a replayed core uses: at each garbage collection it returns the estimate the trace
 * says the spec chose (lastAction.est), so the core collects exactly what the spec collected. The
 * spec picks that estimate nondeterministically (Adaptive.tla, Fig. 1 "any function of the state"),
 * which is why the estimate must come from the trace and not from an algorithm.
 *
 * <p>It also remembers what the core reported for the last message, so the replayer can check the
 * core's lifetime (clock - stamp) and its summary-rejected flag against the spec: those are the
 * inputs Figs. 2 and 3 count in ltimes and numrej.
 */
final class ScriptedEstimator implements LifetimeEstimator {

    private long current;
    private Long next;
    private long lastLifetime;
    private boolean lastSummaryRejected;
    private Verdict lastVerdict;

    ScriptedEstimator(long initial) {
        this.current = initial;
    }

    /** The estimate the next {@link #beginGarbageCollection()} must return. */
    void script(long est) {
        next = est;
    }

    @Override
    public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
        lastLifetime = lifetime;
        lastVerdict = verdict;
        lastSummaryRejected = summaryRejected;
    }

    @Override
    public long beginGarbageCollection() {
        if (next == null) {
            throw new IllegalStateException("the core started a garbage collection the trace did not take");
        }
        current = next;
        next = null;
        return current;
    }

    @Override
    public long current() {
        return current;
    }

    long lastLifetime() {
        return lastLifetime;
    }

    boolean lastSummaryRejected() {
        return lastSummaryRejected;
    }

    Verdict lastVerdict() {
        return lastVerdict;
    }
}
