package dev.onceproof.conformance.verify;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Splits verify's work over N machines: longest-processing-time greedy (each unit, longest first,
 * ties by name, goes to the shard with the least work so far, ties to the lowest index). It depends
 * only on the units' names and seconds, so every machine of a CI matrix computes the same split from
 * the same manifest, and every unit lands in exactly one shard. LPT's longest shard is within 4/3 of
 * the best possible split (Graham 1969), and within one unit of the mean when no unit dominates.
 */
public final class Shards {

    /** Which shard this run is: index 1..count. */
    public record Spec(int index, int count) {

        public static Spec parse(String text) {
            String[] parts = text.split("/", -1);
            try {
                if (parts.length == 2) {
                    int i = Integer.parseInt(parts[0].trim());
                    int n = Integer.parseInt(parts[1].trim());
                    if (n >= 1 && i >= 1 && i <= n) {
                        return new Spec(i, n);
                    }
                }
            } catch (NumberFormatException e) {
                // the message below says what is expected
            }
            throw new IllegalArgumentException("--shard is \"" + text + "\"; it must be I/N with 1 <= I <= N, e.g. 1/2");
        }

        @Override
        public String toString() {
            return index + "/" + count;
        }
    }

    /**
     * One piece of work that runs whole on one shard.
     *
     * @param name    unique: "model:NAME" or "traces:FAMILY"
     * @param seconds the time it is expected to take (recorded, or estimated when never recorded)
     */
    public record Unit(String name, double seconds) {
    }

    private Shards() {
    }

    /** The units of every shard, shard 1 first; within a shard, in the order they were assigned. */
    public static List<List<Unit>> split(List<Unit> units, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("shard count is " + count + "; it must be >= 1");
        }
        List<Unit> order = new ArrayList<>(units);
        order.sort(Comparator.comparingDouble(Unit::seconds).reversed().thenComparing(Unit::name));
        List<List<Unit>> shards = new ArrayList<>();
        double[] load = new double[count];
        for (int i = 0; i < count; i++) {
            shards.add(new ArrayList<>());
        }
        for (Unit u : order) {
            int best = 0;
            for (int i = 1; i < count; i++) {
                if (load[i] < load[best]) {
                    best = i;
                }
            }
            shards.get(best).add(u);
            load[best] += u.seconds();
        }
        return shards;
    }

    public static double seconds(List<Unit> shard) {
        return shard.stream().mapToDouble(Unit::seconds).sum();
    }

    /** One line per shard: its expected seconds and its units, longest first; for the run's header. */
    public static String describe(List<List<Unit>> shards) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < shards.size(); i++) {
            sb.append(String.format(Locale.ROOT, "  shard %d/%d: about %.0f s, %d units:", i + 1, shards.size(),
                    seconds(shards.get(i)), shards.get(i).size()));
            shards.get(i).forEach(u -> sb.append(' ').append(u.name()));
            sb.append(System.lineSeparator());
        }
        return sb.toString();
    }
}
