package dev.onceproof.scmp;

/**
 * A message timestamp: the sender's clock reading in milliseconds (the spec's time unit) when the
 * message was created (paper 2.2). All copies of one message carry the same timestamp.
 *
 * <p>Invariant: {@code |value| <= }{@value #LIMIT}, so the server's arithmetic on it (clock - ts,
 * clock + beta, clock - rho) cannot overflow. Negative values are allowed: in the spec a client whose
 * clock runs behind real time stamps its first messages below zero (SCMP.tla, Init and SendTs).
 *
 * <p>A final value class with record-style API ({@code value()}, value equality) rather than a
 * record: Lincheck 2.39 walks the objects an operation touches with Unsafe field offsets, which the
 * JDK refuses for record classes ("can't get field offset on a record class", JetBrains/lincheck
 * #402); its only workaround, eager instrumentation, quadruples the suite's run time.
 */
public final class Timestamp implements Comparable<Timestamp> {

    /** 2^62 ms is about 146 million years either side of the epoch. */
    public static final long LIMIT = 1L << 62;

    private final long value;

    public Timestamp(long value) {
        if (value > LIMIT || value < -LIMIT) {
            throw new IllegalArgumentException("timestamp " + value + " is outside -2^62..2^62,"
                    + " where clock arithmetic could overflow");
        }
        this.value = value;
    }

    public static Timestamp of(long value) {
        return new Timestamp(value);
    }

    public long value() {
        return value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Timestamp t && t.value == value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
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
