package dev.onceproof.storage;

import java.util.Arrays;

/**
 * One durable value of a {@link SnapshotStore}: an opaque payload and its generation, a number
 * that grows with every write so that a store can refuse to go backwards.
 */
public final class Snapshot {

    private final long generation;
    private final byte[] payload;

    public Snapshot(long generation, byte[] payload) {
        if (generation < 1) {
            throw new IllegalArgumentException("snapshot generation " + generation + " must be at least 1");
        }
        this.generation = generation;
        this.payload = payload.clone();
    }

    public long generation() {
        return generation;
    }

    public byte[] payload() {
        return payload.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Snapshot s && s.generation == generation && Arrays.equals(s.payload, payload);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(generation) * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "Snapshot[generation=" + generation + ", " + payload.length + " bytes]";
    }
}
