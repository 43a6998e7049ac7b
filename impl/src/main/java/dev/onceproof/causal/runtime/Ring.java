package dev.onceproof.causal.runtime;

import dev.onceproof.causal.NodeId;
import java.util.Collection;

/**
 * The ring order in which survivors take the coordinator's role (CausalMembershipRestart's Coord:
 * the first survivor in the order of Nodes; JGroups' oldest member), starting at the configured
 * first coordinator, so that with n1 first it is the spec's order.
 */
record Ring(int n, NodeId first) {

    Ring {
        if (first.index() >= n) {
            throw new IllegalArgumentException("first coordinator " + first + " is not in the group of " + n + " nodes");
        }
    }

    /** k's place in the ring: 0 for the first coordinator. */
    int place(NodeId k) {
        return Math.floorMod(k.index() - first.index(), n);
    }

    /** The first of {@code nodes} in ring order; null if there is none. */
    NodeId firstOf(Collection<NodeId> nodes) {
        NodeId best = null;
        for (NodeId k : nodes) {
            if (best == null || place(k) < place(best)) {
                best = k;
            }
        }
        return best;
    }
}
