package dev.onceproof.exactlyonce;

/** A clock moved by hand (tests, replay, simulation). Refuses to go backwards. */
public final class ManualEoClock implements EoClock {

    private volatile long now;

    public ManualEoClock(long start) {
        this.now = start;
    }

    @Override
    public long now() {
        return now;
    }

    public synchronized void set(long to) {
        if (to < now) {
            throw new IllegalArgumentException("clock cannot go back from " + now + " to " + to);
        }
        now = to;
    }

    public synchronized void advance(long ticks) {
        if (ticks < 0) {
            throw new IllegalArgumentException("cannot advance the clock by " + ticks + " ticks");
        }
        now += ticks;
    }
}
