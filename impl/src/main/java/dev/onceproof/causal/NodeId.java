package dev.onceproof.causal;

/**
 * A node of the group: its index 0..n-1, which is also its position in every vector clock. The
 * spec names nodes "n1".."nN"; {@link #specName()} and {@link #fromSpecName} map between the two,
 * so a trace, a log line and a datagram agree.
 *
 * <p>Invariant: index &ge; 0. Whether it is below the group size is for the node that reads it to
 * check (an unknown node id from the network is a counted refusal there, not an exception here).
 */
public record NodeId(int index) implements Comparable<NodeId> {

    public NodeId {
        if (index < 0) {
            throw new IllegalArgumentException("node index " + index + " is negative");
        }
    }

    public static NodeId of(int index) {
        return new NodeId(index);
    }

    /** "n1" for index 0: the spec's string for the node. */
    public String specName() {
        return "n" + (index + 1);
    }

    public static NodeId fromSpecName(String name) {
        if (name == null || name.length() < 2 || name.charAt(0) != 'n') {
            throw new IllegalArgumentException("node name \"" + name + "\" is not of the form n<k>, k >= 1");
        }
        int k;
        try {
            k = Integer.parseInt(name.substring(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("node name \"" + name + "\" is not of the form n<k>, k >= 1", e);
        }
        if (k < 1) {
            throw new IllegalArgumentException("node name \"" + name + "\" is not of the form n<k>, k >= 1");
        }
        return new NodeId(k - 1);
    }

    @Override
    public int compareTo(NodeId o) {
        return Integer.compare(index, o.index);
    }

    @Override
    public String toString() {
        return specName();
    }
}
