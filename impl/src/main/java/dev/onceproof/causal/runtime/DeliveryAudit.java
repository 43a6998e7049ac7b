package dev.onceproof.causal.runtime;

import dev.onceproof.causal.EventId;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks delivery logs against the properties of the spec, from the logs alone (never from the
 * clocks the protocol uses, so a wrong clock cannot hide its own mistake). Each node's log is the
 * ids it handed to its application, in order, its own broadcasts included at issue.
 *
 * <ul>
 *   <li>Once (NoDuplicateDelivery): no id twice in a log.</li>
 *   <li>Integrity (NoCreation): every delivered id is in its origin's log.</li>
 *   <li>FIFO (FIFO and causal modes): node j delivers (k, s) only after (k, 1..s-1).</li>
 *   <li>Causal (causal mode): if the origin o of e delivered (k, s) before issuing e, every node
 *       delivers (k, s) before e. With FIFO at every node, checking the highest such s per k covers
 *       the whole direct past, and transitivity follows node by node (happened-before of paper 2.1).</li>
 *   <li>Complete (eventual delivery): every event of every sender in {@code correct} is delivered by
 *       every node in {@code correct}.</li>
 * </ul>
 */
public final class DeliveryAudit {

    private DeliveryAudit() {
    }

    /** At most this many violations are listed; the counts are always complete. */
    static final int MAX_LISTED = 20;

    /** The outcome: a count per property and the first violations, each naming node, event and rule. */
    public record Result(long duplicates, long forged, long fifo, long causal, long incomplete, List<String> violations) {

        public Result {
            violations = List.copyOf(violations);
        }

        public boolean orderOk() {
            return fifo == 0 && causal == 0;
        }

        public boolean onceOk() {
            return duplicates == 0 && forged == 0;
        }

        public boolean completeOk() {
            return incomplete == 0;
        }

        public boolean ok() {
            return orderOk() && onceOk() && completeOk();
        }
    }

    public static Result check(Mode mode, Map<NodeId, List<EventId>> logs, Set<NodeId> correct) {
        long dup = 0, forged = 0, fifo = 0, causal = 0, incomplete = 0;
        List<String> v = new ArrayList<>();
        Map<NodeId, Map<EventId, Integer>> pos = new HashMap<>();
        for (Map.Entry<NodeId, List<EventId>> en : logs.entrySet()) {
            Map<EventId, Integer> p = new HashMap<>();
            List<EventId> log = en.getValue();
            for (int q = 0; q < log.size(); q++) {
                if (p.putIfAbsent(log.get(q), q) != null) {
                    dup++;
                    note(v, "NoDuplicateDelivery: " + en.getKey() + " delivered " + log.get(q) + " twice (positions "
                            + p.get(log.get(q)) + " and " + q + ")");
                }
            }
            pos.put(en.getKey(), p);
        }
        // The direct past of each event: per origin k, the highest seq of k its origin delivered before it.
        Map<EventId, Map<NodeId, Long>> past = new HashMap<>();
        for (Map.Entry<NodeId, List<EventId>> en : logs.entrySet()) {
            Map<NodeId, Long> seen = new HashMap<>();
            for (EventId e : en.getValue()) {
                if (e.origin().equals(en.getKey())) {
                    past.put(e, new HashMap<>(seen));
                }
                seen.merge(e.origin(), e.seq(), Math::max);
            }
        }
        for (Map.Entry<NodeId, List<EventId>> en : logs.entrySet()) {
            NodeId j = en.getKey();
            Map<EventId, Integer> p = pos.get(j);
            List<EventId> log = en.getValue();
            for (int q = 0; q < log.size(); q++) {
                EventId e = log.get(q);
                Map<NodeId, Long> direct = past.get(e);
                if (direct == null) {
                    forged++;
                    note(v, "NoCreation: " + j + " delivered " + e + ", which its origin never issued");
                    continue;
                }
                if (mode == Mode.UNORDERED) {
                    continue;
                }
                if (e.seq() > 1 && p.getOrDefault(new EventId(e.origin(), e.seq() - 1), Integer.MAX_VALUE) > q) {
                    fifo++;
                    note(v, "FIFOOrder: " + j + " delivered " + e + " at position " + q + " before "
                            + new EventId(e.origin(), e.seq() - 1));
                }
                if (mode == Mode.CAUSAL) {
                    for (Map.Entry<NodeId, Long> dep : direct.entrySet()) {
                        EventId d = new EventId(dep.getKey(), dep.getValue());
                        if (!d.origin().equals(e.origin()) && p.getOrDefault(d, Integer.MAX_VALUE) > q) {
                            causal++;
                            note(v, "CausalOrder: " + j + " delivered " + e + " at position " + q + " before "
                                    + d + ", which " + e.origin() + " had delivered before issuing it");
                        }
                    }
                }
            }
        }
        for (NodeId sender : correct) {
            Set<EventId> issued = new HashSet<>();
            for (EventId e : logs.getOrDefault(sender, List.of())) {
                if (e.origin().equals(sender)) {
                    issued.add(e);
                }
            }
            for (NodeId j : correct) {
                Map<EventId, Integer> p = pos.getOrDefault(j, Map.of());
                for (EventId e : issued) {
                    if (!p.containsKey(e)) {
                        incomplete++;
                        note(v, "EventualDelivery: " + j + " never delivered " + e);
                    }
                }
            }
        }
        return new Result(dup, forged, fifo, causal, incomplete, v);
    }

    private static void note(List<String> v, String s) {
        if (v.size() < MAX_LISTED) {
            v.add(s);
        }
    }
}
