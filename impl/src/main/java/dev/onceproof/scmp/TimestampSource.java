package dev.onceproof.scmp;

/**
 * Client side of one connection: stamps each new message (spec action Send(c)). Timestamps are
 * strictly increasing even when the clock does not advance between sends or jumps back, because
 * the connection id and timestamp together must be a unique message id (paper 2.2: "the client can
 * maintain a counter for use as the low bits of the timestamp"). Here the counter is folded into the
 * millisecond value itself: a send within the same tick borrows the next millisecond.
 *
 * <p>Not thread-safe; see {@link AtomicTimestampSource} for a connection shared by threads.
 */
public final class TimestampSource {

    /**
     * The last timestamp handed out (0 before the first, so the first is at least 1): every later
     * one is strictly above it.
     */
    private long lastSent;

    public TimestampSource() {
        this(0);
    }

    /**
     * Resumes a connection whose last timestamp is known (after a client restart, or the spec's
     * initial {@code lastSent = skew[c] - 1} in trace replay).
     */
    public TimestampSource(long lastSent) {
        this.lastSent = new Timestamp(lastSent).value();
    }

    /** The timestamp for a new message, given the client's clock reading in milliseconds. */
    public Timestamp next(long clockReading) {
        lastSent = nextAfter(lastSent, clockReading);
        return new Timestamp(lastSent);
    }

    public long lastSent() {
        return lastSent;
    }

    /** The rule shared with the thread-safe source: the clock, unless that would not be new. */
    static long nextAfter(long last, long clockReading) {
        if (last >= Timestamp.LIMIT) {
            throw new IllegalStateException("timestamp " + last + " is the largest; the connection is exhausted");
        }
        return new Timestamp(Math.max(clockReading, last + 1)).value();
    }
}
