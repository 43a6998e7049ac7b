package dev.onceproof.causal;

import java.util.TreeSet;

/**
 * Recovery state of one missing event at one node (Reactive Error Recovery, paper 5.1 and 5.3; the
 * spec's {@code missing[i]} entry). Mutable, owned by the node.
 *
 * <p>Invariants: {@code holders} holds the event's origin and never the node itself; {@code asked}
 * is null while WAITING and a holder afterwards.
 */
final class Missing {

    Phase phase = Phase.WAITING;
    /**
     * Nodes the metadata proves have delivered the event: its origin, the origins of received
     * messages that depend on it, the senders of heartbeats that cover it. Sorted by index, which
     * is the ring order retries follow.
     */
    final TreeSet<NodeId> holders = new TreeSet<>();
    /** The node asked last; null while waiting. */
    NodeId asked;
    /** When the running timer (w while WAITING, RTO while ASKED) expires, in ticker units. */
    long deadline;

    Missing(EventId id, NodeId revealedBy, long deadline) {
        this.deadline = deadline;
        holders.add(id.origin());
        holders.add(revealedBy);
    }

    MissingState view() {
        return new MissingState(phase, holders, asked);
    }
}
