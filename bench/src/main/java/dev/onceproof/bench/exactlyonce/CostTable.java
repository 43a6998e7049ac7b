package dev.onceproof.bench.exactlyonce;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Beyond the paper (issue item 4): what each strategy with a core costs per connection in the
 * stochastic mode, and how fast the simulator runs. Measured on the same connections (seed,
 * connection k) for every strategy.
 */
final class CostTable {

    private CostTable() {
    }

    /**
     * Means per connection of one strategy.
     *
     * @param notes              notes processed within T_c
     * @param messagesPerNote    messages on the wire (deliveries, acks, syncs, purges) per processed note
     * @param syncIdsPerNote     note ids carried in sync messages per processed note (their size)
     * @param clientWritesPerNote durable client writes per processed note
     * @param serverWritesPerNote durable writes of the connected and the other servers per processed note
     * @param clientSlots        most client stable slots in use (S3: R entries; S1/S2: N counters; S0: 0)
     * @param firstNote          seconds from the session's start to the first processed note
     * @param duplicates         notes processed more than once (S0 can; none can in a lossless single connection)
     * @param connectionsPerSecond simulated connections per second (wall clock, this machine)
     */
    record Row(int strategy, double notes, double messagesPerNote, double syncIdsPerNote, double clientWritesPerNote,
            double serverWritesPerNote, double clientSlots, double firstNote, long duplicates,
            double connectionsPerSecond) {
    }

    static List<Row> measure(Params p, Simulator sim, long seed, int connections) {
        List<Row> rows = new ArrayList<>();
        for (int s = 0; s <= 3; s++) {
            if (sim.missing(s).isPresent() || connections == 0) {
                continue;
            }
            double notes = 0;
            double messages = 0;
            double syncIds = 0;
            double cw = 0;
            double sw = 0;
            double slots = 0;
            double first = 0;
            int withFirst = 0;
            long dups = 0;
            long start = System.nanoTime();
            for (int k = 0; k < connections; k++) {
                Rig rig = CoreSimulator.stochasticCount(s, p, seed, k);
                notes += rig.processed.size();
                messages += rig.costs.messages();
                syncIds += rig.costs.syncIds;
                cw += rig.costs.clientWrites;
                sw += rig.costs.serverWrites;
                dups += rig.duplicates;
                slots += rig instanceof IdListRig id ? id.maxR : s == 0 ? 0 : p.N();
                if (!rig.processed.isEmpty()) {
                    first += rig.processed.get(0);
                    withFirst++;
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            rows.add(new Row(s, notes / connections, messages / notes, syncIds / notes, cw / notes, sw / notes,
                    slots / connections, withFirst == 0 ? Double.NaN : first / withFirst, dups, connections / seconds));
        }
        return rows;
    }

    static void print(List<Row> rows, int connections, PrintStream out) {
        out.printf(Locale.ROOT, "cost per connection at this point (stochastic, %d connections each; wall-clock speed"
                + " on this machine):%n", connections);
        out.printf(Locale.ROOT, "%-4s %8s %10s %11s %10s %10s %8s %10s %5s %9s%n", "", "notes", "msgs/note",
                "syncIds/nt", "cWrite/nt", "sWrite/nt", "cSlots", "1st note s", "dups", "conn/s");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "S%-3d %8.2f %10.2f %11.1f %10.2f %10.2f %8.1f %10.3f %5d %9.0f%n", r.strategy(),
                    r.notes(), r.messagesPerNote(), r.syncIdsPerNote(), r.clientWritesPerNote(),
                    r.serverWritesPerNote(), r.clientSlots(), r.firstNote(), r.duplicates(), r.connectionsPerSecond());
        }
    }
}
