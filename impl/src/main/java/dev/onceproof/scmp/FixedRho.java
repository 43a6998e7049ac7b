package dev.onceproof.scmp;

/**
 * The paper's rho: a constant chosen from the network's characteristics (2.4, rho >= eps + delta).
 * Not a record, for the Lincheck reason given on {@link ConnId}.
 */
public final class FixedRho implements LifetimeEstimator {

    private final long rho;

    public FixedRho(long rho) {
        if (rho < 0) {
            throw new IllegalArgumentException("rho " + rho + " is negative");
        }
        this.rho = rho;
    }

    public long rho() {
        return rho;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FixedRho f && f.rho == rho;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(rho);
    }

    @Override
    public String toString() {
        return "FixedRho[" + rho + "]";
    }

    @Override
    public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
        // A constant estimate ignores the history.
    }

    @Override
    public boolean observesMessages() {
        return false;
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
