package dev.onceproof.causal;

import java.util.List;
import java.util.Objects;

/**
 * What a donor hands a joining spare id (specs/causal/CausalJoin.tla, Join(d, j)): its delivered
 * prefix (the joiner counts as having delivered all of it and never delivers those events), its
 * recovery store (so the joiner answers requests like any member), its view with the joiner, the
 * agreed sets of the nodes removed so far, and its rows of every node's progress (lower bounds of
 * theirs, so lower bounds for the joiner too).
 *
 * <p>A final class rather than a record, as {@link SeqSet} (Lincheck cannot walk records).
 */
public final class JoinState {

    private final NodeId donor;
    private final NodeId joiner;
    private final VectorClock prefix;
    private final List<Event> store;
    private final boolean[] view;
    private final SeqSet[] agreed;
    private final VectorClock[] rows;

    /**
     * A state read back from the wire (the UDP runtime hands it to the joiner in datagrams); the
     * arrays are per node index, {@code agreed[k]} null for a node never removed.
     */
    public static JoinState of(NodeId donor, NodeId joiner, VectorClock prefix, List<Event> store, boolean[] view,
            SeqSet[] agreed, VectorClock[] rows) {
        if (view.length != prefix.size() || agreed.length != prefix.size() || rows.length != prefix.size()) {
            throw new IllegalArgumentException("join state of " + joiner + ": view, agreed and rows need "
                    + prefix.size() + " entries, the prefix's size; got " + view.length + ", " + agreed.length + ", "
                    + rows.length);
        }
        return new JoinState(donor, joiner, prefix, store, view, agreed, rows);
    }

    JoinState(NodeId donor, NodeId joiner, VectorClock prefix, List<Event> store, boolean[] view,
              SeqSet[] agreed, VectorClock[] rows) {
        this.donor = Objects.requireNonNull(donor, "donor");
        this.joiner = Objects.requireNonNull(joiner, "joiner");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.store = List.copyOf(store);
        this.view = view.clone();
        this.agreed = agreed.clone();
        this.rows = rows.clone();
    }

    public NodeId donor() {
        return donor;
    }

    public NodeId joiner() {
        return joiner;
    }

    /** The donor's delivered prefix when it handed its state: the joiner's starting prefix. */
    public VectorClock prefix() {
        return prefix;
    }

    public List<Event> store() {
        return store;
    }

    public boolean inView(int k) {
        return view[k];
    }

    public SeqSet agreed(int k) {
        return agreed[k];
    }

    public VectorClock row(int k) {
        return rows[k];
    }
}
