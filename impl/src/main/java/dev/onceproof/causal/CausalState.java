package dev.onceproof.causal;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One node's abstract state: the spec's per-node variables (specs/CONVENTIONS.md, Causal), compared
 * field by field in trace replay. Immutable and sorted, so two states print alike. Messages are
 * keyed by id with their clock (content is unique per id; the payload is not in the spec).
 *
 * @param vc delivered prefix per origin (spec {@code vc[i]})
 * @param deliveredAbove events delivered above the prefix: always empty in the ordered modes; in
 *     UNORDERED the events delivered out of order (not in the spec, which has the ordered modes)
 * @param buf received, not yet delivered (spec {@code buf[i]})
 * @param store kept to answer requests (spec {@code store[i]})
 * @param missing tracked missing events (spec {@code missing[i]})
 * @param up false once crashed (spec {@code up[i]})
 * @param known per other node j, what this node has learnt of j's delivered prefix from the
 *     clocks j sent (spec {@code known[i][j]}, j # i; the own row is {@code vc}): what garbage
 *     collection's stability rests on
 * @param view the members of this node's installed view (spec {@code view[i]}, CausalMembership)
 */
public record CausalState(VectorClock vc, SortedSet<EventId> deliveredAbove, SortedMap<EventId, VectorClock> buf,
        SortedMap<EventId, VectorClock> store, SortedMap<EventId, MissingState> missing, boolean up,
        SortedMap<NodeId, VectorClock> known, SortedSet<NodeId> view) {

    public CausalState {
        Objects.requireNonNull(vc, "vc");
        deliveredAbove = Collections.unmodifiableSortedSet(new TreeSet<>(deliveredAbove));
        buf = Collections.unmodifiableSortedMap(new TreeMap<>(buf));
        store = Collections.unmodifiableSortedMap(new TreeMap<>(store));
        missing = Collections.unmodifiableSortedMap(new TreeMap<>(missing));
        known = Collections.unmodifiableSortedMap(new TreeMap<>(known));
        view = Collections.unmodifiableSortedSet(new TreeSet<>(view));
    }
}
