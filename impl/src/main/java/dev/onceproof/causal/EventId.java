package dev.onceproof.causal;

import java.util.Objects;

/**
 * One broadcast event: its original node and its sequence number there, counting from 1 (the
 * spec's {@code <<origin, seq>>}). Unique in the group, because a node never reuses a sequence
 * number (crash-stop: a crashed node does not come back with the same id).
 */
public record EventId(NodeId origin, long seq) implements Comparable<EventId> {

    public EventId {
        Objects.requireNonNull(origin, "origin");
        if (seq < 1) {
            throw new IllegalArgumentException("event sequence number " + seq + " of " + origin + " is below 1");
        }
    }

    public static EventId of(int originIndex, long seq) {
        return new EventId(NodeId.of(originIndex), seq);
    }

    @Override
    public int compareTo(EventId o) {
        int c = origin.compareTo(o.origin);
        return c != 0 ? c : Long.compare(seq, o.seq);
    }

    @Override
    public String toString() {
        return "<<" + origin + "," + seq + ">>";
    }
}
