package dev.onceproof.causal;

import java.util.EnumMap;
import java.util.Map;

/** A snapshot of a node's counts and refusals (immutable). */
public record Counters(Map<Count, Long> counts, Map<Refusal, Long> refusals) {

    public Counters {
        counts = Map.copyOf(counts);
        refusals = Map.copyOf(refusals);
    }

    public long get(Count c) {
        return counts.getOrDefault(c, 0L);
    }

    public long refused(Refusal r) {
        return refusals.getOrDefault(r, 0L);
    }

    public long refusedTotal() {
        return refusals.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The mutable tally a node keeps; not thread-safe, like the node. */
    static final class Tally {
        private final long[] counts = new long[Count.values().length];
        private final long[] refusals = new long[Refusal.values().length];

        void add(Count c) {
            counts[c.ordinal()]++;
        }

        void add(Count c, long n) {
            counts[c.ordinal()] += n;
        }

        void refuse(Refusal r) {
            refusals[r.ordinal()]++;
        }

        Counters snapshot() {
            Map<Count, Long> c = new EnumMap<>(Count.class);
            for (Count k : Count.values()) {
                c.put(k, counts[k.ordinal()]);
            }
            Map<Refusal, Long> r = new EnumMap<>(Refusal.class);
            for (Refusal k : Refusal.values()) {
                r.put(k, refusals[k.ordinal()]);
            }
            return new Counters(c, r);
        }
    }
}
