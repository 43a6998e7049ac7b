package dev.onceproof.scmp;

/**
 * A message timestamp: the sender's clock reading in milliseconds (the spec's time unit) when the
 * message was created (paper 2.2). All copies of one message carry the same timestamp.
 *
 * <p>Invariant: {@code value >= 0}; the spec's timestamps are naturals.
 */
public record Timestamp(long value) implements Comparable<Timestamp> {

    public Timestamp {
        if (value < 0) {
            throw new IllegalArgumentException("timestamp " + value + " is negative");
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
