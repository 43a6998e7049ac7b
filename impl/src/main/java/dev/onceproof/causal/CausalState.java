package dev.onceproof.causal;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * One node's abstract state: the spec's per-node variables, compared field by field in trace
 * replay. Immutable, with sorted collections so two states print alike.
 *
 * @param vc delivered prefix per origin (spec {@code vc[i]})
 * @param delivered events delivered above the prefix: always empty in the ordered modes, events
 *     delivered out of order in UNORDERED (the spec's {@code dset[i]} minus the prefix)
 * @param buf events received and not yet delivered (spec {@code buf[i]}, by id: content is unique
 *     per id)
 * @param store events kept to answer requests (spec {@code store[i]}, by id)
 * @param phase tracked missing events and their phase (spec {@code phase[i][d]}, "none" omitted)
 * @param hint for each tracked event, the node whose message revealed it (spec {@code hint[i][d]})
 * @param holders for each tracked event, the nodes known to hold it, in the order requests cycle
 *     through them (origin first)
 * @param crashed spec {@code crashed[i]}
 */
public record CausalState(VectorClock vc, SortedSet<EventId> delivered, SortedSet<EventId> buf,
        SortedSet<EventId> store, SortedMap<EventId, Phase> phase, SortedMap<EventId, NodeId> hint,
        Map<EventId, List<NodeId>> holders, boolean crashed) {

    public CausalState {
        Objects.requireNonNull(vc, "vc");
        delivered = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(delivered));
        buf = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(buf));
        store = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(store));
        phase = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(phase));
        hint = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(hint));
        holders = Map.copyOf(holders);
    }
}
