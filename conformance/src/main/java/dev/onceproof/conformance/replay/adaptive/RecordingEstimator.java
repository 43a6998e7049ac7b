package dev.onceproof.conformance.replay.adaptive;

import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.Verdict;

/**
 * Passes every call through and remembers what the core reported for the last message, so the
 * replayer can check the lifetime (clock - stamp) and the summary-rejected flag against the spec:
 * the inputs Figs. 2 and 3 put into ltimes and numrej.
 */
final class RecordingEstimator implements LifetimeEstimator {

    private final LifetimeEstimator inner;
    private long lastLifetime;
    private boolean lastSummaryRejected;

    RecordingEstimator(LifetimeEstimator inner) {
        this.inner = inner;
    }

    @Override
    public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
        lastLifetime = lifetime;
        lastSummaryRejected = summaryRejected;
        inner.onMessage(lifetime, verdict, summaryRejected);
    }

    @Override
    public long beginGarbageCollection() {
        return inner.beginGarbageCollection();
    }

    @Override
    public long current() {
        return inner.current();
    }

    long lastLifetime() {
        return lastLifetime;
    }

    boolean lastSummaryRejected() {
        return lastSummaryRejected;
    }
}
