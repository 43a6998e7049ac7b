package dev.onceproof.conformance.replay.adaptive;

import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.Verdict;

/**
 * The estimator a replayed core uses for Adaptive.tla: at each garbage collection it returns the
 * estimate the trace says the spec chose (lastAction.est), so the core collects exactly what the
 * spec collected. The spec picks that estimate nondeterministically (Fig. 1 "any function of the
 * state"), which is why it must come from the trace and not from an algorithm.
 */
final class ScriptedEstimator implements LifetimeEstimator {

    private long current;
    private Long next;

    ScriptedEstimator(long initial) {
        this.current = initial;
    }

    /** The estimate the next {@link #beginGarbageCollection()} must return. */
    void script(long est) {
        next = est;
    }

    @Override
    public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
        // The script, not the history, decides the estimate.
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
}
