package dev.onceproof.scmp;

import java.time.Instant;
import java.time.InstantSource;

/**
 * A clock the caller moves: for simulation, trace replay (the spec's Tick and ClockJump move it) and
 * Lincheck. Thread-safe, since a concurrent test may advance it while workers read it. It may go
 * backwards on purpose: a resilient server must stay safe when its clock jumps back (paper 2.3).
 */
public final class ManualInstantSource implements InstantSource {

    private volatile long millis;

    public ManualInstantSource(long millis) {
        this.millis = millis;
    }

    public synchronized void set(long millis) {
        this.millis = millis;
    }

    public synchronized void advance(long deltaMillis) {
        this.millis += deltaMillis;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }
}
