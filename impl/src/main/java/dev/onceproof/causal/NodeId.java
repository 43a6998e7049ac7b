package dev.onceproof.causal;

/**
 * A node of the group: its index 0..n-1, which is also its position in every vector clock. The
 * spec names nodes "n1".."nN"; {@link #specName()} and {@link #fromSpecName} map between the two,
 * so a trace, a log line and a datagram agree.
 *
 * <p>Invariant: index &ge; 0. Whether it is below the group size is for the node that reads it to
 * check (an unknown node id from the network is a counted refusal there, not an exception here).
 *
 * <p>A final value class with record-style API rather than a record: the node holds its own id from
 * construction, and Lincheck 2.39 cannot walk a record in the object graph it transforms
 * ("can't get field offset on a record class", lincheck#402).
 */
public final class NodeId implements Comparable<NodeId> {

    private final int index;

    public NodeId(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("node index " + index + " is negative");
        }
        this.index = index;
    }

    public int index() {
        return index;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeId k && k.index == index;
    }

    @Override
    public int hashCode() {
        return index;
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
