package dev.onceproof.scmp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link TimestampSource} for a connection whose messages are stamped by several threads: a
 * compare-and-set loop, so two threads never get the same timestamp and each thread sees its own
 * timestamps strictly increase.
 */
public final class AtomicTimestampSource {

    /** The last timestamp handed out (0 before the first); only increases. */
    private final AtomicLong lastSent;

    public AtomicTimestampSource() {
        this(0);
    }

    public AtomicTimestampSource(long lastSent) {
        this.lastSent = new AtomicLong(new Timestamp(lastSent).value());
    }

    public Timestamp next(long clockReading) {
        return new Timestamp(lastSent.updateAndGet(last -> TimestampSource.nextAfter(last, clockReading)));
    }

    public long lastSent() {
        return lastSent.get();
    }
}
