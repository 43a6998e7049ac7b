package dev.onceproof.scmp;

/**
 * A message timestamp: the sender's clock reading in milliseconds (the spec's time unit) when the
 * message was created (paper 2.2). All copies of one message carry the same timestamp.
 *
 * <p>Invariant: {@code |value| <= }{@value #LIMIT}, so the server's arithmetic on it (clock - ts,
 * clock + beta, clock - rho) cannot overflow. Negative values are allowed: in the spec a client whose
 * clock runs behind real time stamps its first messages below zero (SCMP.tla, Init and SendTs).
 */
public record Timestamp(long value) implements Comparable<Timestamp> {

    /** 2^62 ms is about 146 million years either side of the epoch. */
    public static final long LIMIT = 1L << 62;

    public Timestamp {
        if (value > LIMIT || value < -LIMIT) {
            throw new IllegalArgumentException("timestamp " + value + " is outside -2^62..2^62,"
                    + " where clock arithmetic could overflow");
        }
    }

    public static Timestamp of(long value) {
        return new Timestamp(value);
    }

    @Override
    public int compareTo(Timestamp other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
