package dev.onceproof.adaptive;

import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.Verdict;

/**
 * Lets a {@link LimitedHorizonEstimator} serve one rho class of a multi-class {@code ScmpServer}.
 *
 * <p>Why it exists: Fig. 3 updates the estimate exactly when its class has received S messages, but
 * {@code ScmpServer.collectGarbage()} runs one pass over every class and asks every class's
 * estimator for an estimate (end of Liskov et al. 2.4: one upper per class). A class whose S-th
 * message has not come yet is then asked out of turn. This adapter answers such a request with the
 * unchanged current estimate, so that class's entries are collected with the estimate Fig. 3 last
 * set and its ltimes, numacc and numrej are untouched; only a due request runs Fig. 3's update.
 * Condition 1 does not care (Theorem 2 holds for any estimate), and an extra pass with an unchanged
 * estimate only collects entries the next due pass would collect too.
 *
 * <p>Use: after every message, if any class's {@link #garbageCollectionDue()} is true, call
 * {@code collectGarbage()}. A per-class {@code collectGarbage(String rhoClass)} on the server would
 * make this adapter unnecessary (asked for in the report).
 */
public final class SharedPassAdapter implements LifetimeEstimator {

    private final LimitedHorizonEstimator delegate;
    private long outOfTurn;

    public SharedPassAdapter(LimitedHorizonEstimator delegate) {
        this.delegate = delegate;
    }

    @Override
    public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
        delegate.onMessage(lifetime, verdict, summaryRejected);
    }

    @Override
    public long beginGarbageCollection() {
        if (delegate.garbageCollectionDue()) {
            return delegate.beginGarbageCollection();
        }
        outOfTurn++;
        return delegate.current();
    }

    @Override
    public long current() {
        return delegate.current();
    }

    public boolean garbageCollectionDue() {
        return delegate.garbageCollectionDue();
    }

    /** Passes run for another class's sake, with this class's estimate unchanged. */
    public long outOfTurnPasses() {
        return outOfTurn;
    }

    public LimitedHorizonEstimator delegate() {
        return delegate;
    }
}
