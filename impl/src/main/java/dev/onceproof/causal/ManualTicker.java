package dev.onceproof.causal;

/** A {@link Ticker} moved by hand: for tests, trace replay and discrete-event simulation. */
public final class ManualTicker implements Ticker {

    private volatile long now;

    public ManualTicker(long start) {
        this.now = start;
    }

    @Override
    public long read() {
        return now;
    }

    /** Moves time forward; it never goes back, as the core's timers assume. */
    public synchronized void advance(long by) {
        if (by < 0) {
            throw new IllegalArgumentException("time moves forward only; advance by " + by);
        }
        now += by;
    }

    public synchronized void set(long to) {
        if (to < now) {
            throw new IllegalArgumentException("time moves forward only; " + to + " is before " + now);
        }
        now = to;
    }
}
