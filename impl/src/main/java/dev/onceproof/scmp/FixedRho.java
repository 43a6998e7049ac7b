package dev.onceproof.scmp;

/** The paper's rho: a constant chosen from the network's characteristics (2.4, rho >= eps + delta). */
public record FixedRho(long rho) implements LifetimeEstimator {

    public FixedRho {
        if (rho < 0) {
            throw new IllegalArgumentException("rho " + rho + " is negative");
        }
    }

    @Override
    public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
        // A constant estimate ignores the history.
    }

    @Override
    public long beginGarbageCollection() {
        return rho;
    }

    @Override
    public long current() {
        return rho;
    }
}
