package dev.onceproof.rpc.hybrid;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The clock a concurrent wrapper gives its core: the wrapper reads the real clock once per step,
 * under its lock, and the core sees that reading for the whole step. So the time the step log names
 * is the time the step used (a second read could see the next millisecond, and TLC would then check
 * a garbage collection or a stamp against a time it did not use). Written and read under the
 * wrapper's lock only.
 */
final class StepClock implements InstantSource {

    private final InstantSource source;
    private long reading;

    StepClock(InstantSource source) {
        this.source = source;
        this.reading = source.millis();
    }

    /** Reads the real clock for the step about to run; returns the reading. */
    long read() {
        reading = source.millis();
        return reading;
    }

    @Override
    public long millis() {
        return reading;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(reading);
    }
}
