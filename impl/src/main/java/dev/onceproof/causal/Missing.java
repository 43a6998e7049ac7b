package dev.onceproof.causal;

import java.util.ArrayList;
import java.util.List;

/**
 * Recovery state of one missing event at one node (Reactive Error Recovery, paper 5.1 and 5.3;
 * reading notes R1-R4). Mutable, owned by the node.
 *
 * <p>Invariants: {@code holders} starts with the event's origin and never holds the node itself or
 * a node twice; {@code tries} is the number of requests sent so far (0 while WAITING).
 */
final class Missing {

    Phase phase = Phase.WAITING;
    /** The origin of the message that revealed the gap: it delivered the event before issuing that message. */
    final NodeId hint;
    /** Nodes known to hold the event, in the order requests cycle through them. */
    final List<NodeId> holders = new ArrayList<>(2);
    int tries;
    /** When the running timer (w while WAITING, RTO while ASKED) expires, in ticker units. */
    long deadline;

    Missing(EventId id, NodeId hint, NodeId self, long deadline) {
        this.hint = hint;
        this.deadline = deadline;
        addHolder(id.origin(), self);
        addHolder(hint, self);
    }

    void addHolder(NodeId k, NodeId self) {
        if (!k.equals(self) && !holders.contains(k)) {
            holders.add(k);
        }
    }
}
