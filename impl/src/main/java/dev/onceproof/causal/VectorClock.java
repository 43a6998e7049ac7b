package dev.onceproof.causal;

import java.util.Arrays;

/**
 * A vector of per-node counts, immutable and compared by content. Component k of an event's clock
 * is how many of node k's events its origin had delivered when it issued the event (the origin's
 * own component is the event's sequence number); component k of a node's clock is the prefix of
 * k's events it has delivered: every (k, 1..vc[k]) and, in the ordered modes, nothing above.
 *
 * <p>Invariant: every component &ge; 0. The size is the group size of whoever built it; a node
 * refuses a clock of another size (counted), it does not throw.
 */
public final class VectorClock {

    /** Never written after construction, never handed out (a plain array, not Guava's, keeps Lincheck's instrumentation small). */
    private final long[] counts;

    private VectorClock(long[] counts) {
        for (int k = 0; k < counts.length; k++) {
            if (counts[k] < 0) {
                throw new IllegalArgumentException("vector clock component " + k + " is negative: " + counts[k]);
            }
        }
        this.counts = counts;
    }

    public static VectorClock zero(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("vector clock size " + size + " is below 1");
        }
        return new VectorClock(new long[size]);
    }

    public static VectorClock of(long... counts) {
        return new VectorClock(counts.clone());
    }

    public int size() {
        return counts.length;
    }

    public long get(int k) {
        return counts[k];
    }

    public long get(NodeId k) {
        return counts[k.index()];
    }

    /** A copy with component k set to value. */
    public VectorClock with(int k, long value) {
        long[] a = counts.clone();
        a[k] = value;
        return new VectorClock(a);
    }

    public long[] toArray() {
        return counts.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VectorClock v && Arrays.equals(counts, v.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return Arrays.toString(counts);
    }
}
