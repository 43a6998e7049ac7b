package dev.onceproof.bench.adaptive;

import dev.onceproof.adaptive.PowerOfTwo;
import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.Verdict;

/** Deliberately wrong variants of Fig. 2, to show the harness's checks can fail. */
final class BrokenEstimators {

    private BrokenEstimators() {
    }

    /** Fig. 2 without the decrease branch: raises, never lowers. */
    static final class NeverLowers implements LifetimeEstimator {
        private long est = 1;
        private long max;

        @Override
        public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
            max = Math.max(max, lifetime);
        }

        @Override
        public long beginGarbageCollection() {
            if (max > est) {
                est = PowerOfTwo.ceil(max);
            }
            max = 0;
            return est;
        }

        @Override
        public long current() {
            return est;
        }
    }

    /** Fig. 2 without the numacc > p * numrej guard: lowers whenever the period's maximum allows. */
    static final class Unguarded implements LifetimeEstimator {
        private long est = 1;
        private long max;

        @Override
        public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
            max = Math.max(max, lifetime);
        }

        @Override
        public long beginGarbageCollection() {
            if (max > est || (est > max && max > 0)) {
                est = PowerOfTwo.ceil(max);
            }
            max = 0;
            return est;
        }

        @Override
        public long current() {
            return est;
        }
    }
}
