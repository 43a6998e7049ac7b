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
     * @param bytesPerNote       bytes on the wire per processed note: every message the cores sent, encoded
     *                           with the exactly-once wire codec ({@code EoWire})
     * @param syncIdsPerNote     note ids carried in sync messages per processed note (their size)
     * @param clientWritesPerNote durable client writes per processed note
     * @param serverWritesPerNote durable writes of the connected and the other servers per processed note
     * @param clientSlots        most client stable slots in use (S3: R entries; S1/S2: N counters; S6: history
     *                           entries; S0, S4, S5: 0)
     * @param firstNote          seconds from the session's start to the first processed note
     * @param duplicates         notes processed more than once (S0 can; none can in a lossless single connection)
     * @param connectionsPerSecond simulated connections per second (wall clock, this machine)
     */
    record Row(int strategy, double notes, double messagesPerNote, double bytesPerNote, double syncIdsPerNote, double clientWritesPerNote,
            double serverWritesPerNote, double clientSlots, double firstNote, long duplicates,
            double connectionsPerSecond) {
    }

    static List<Row> measure(Params p, Simulator sim, long seed, int connections) {
        List<Row> rows = new ArrayList<>();
        for (int s = 0; s <= 6; s++) {
            if (sim.missingAt(s, p).isPresent() || connections == 0) {
                continue;
            }
            double notes = 0;
            double messages = 0;
            double bytes = 0;
            double syncIds = 0;
            double cw = 0;
            double sw = 0;
            double slots = 0;
            double first = 0;
            int withFirst = 0;
            long dups = 0;
            long start = System.nanoTime();
            for (int k = 0; k < connections; k++) {
                Rig rig = CoreSimulator.stochasticCountWithBytes(s, p, seed, k);
                notes += rig.processed.size();
                messages += rig.costs.messages();
                bytes += rig.costs.bytes;
                syncIds += rig.costs.syncIds;
                cw += rig.costs.clientWrites;
                sw += rig.costs.serverWrites;
                dups += rig.duplicates;
                slots += rig instanceof IdListRig id ? id.maxR : rig instanceof GatherRig g ? g.clientSlots()
                        : s == 0 ? 0 : p.N();
                if (!rig.processed.isEmpty()) {
                    first += rig.processed.get(0) - (rig instanceof GatherRig g ? g.t0 : 0);
                    withFirst++;
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            rows.add(new Row(s, notes / connections, messages / notes, bytes / notes, syncIds / notes, cw / notes, sw / notes,
                    slots / connections, withFirst == 0 ? Double.NaN : first / withFirst, dups, connections / seconds));
        }
        return rows;
    }

    static void print(List<Row> rows, int connections, PrintStream out) {
        out.printf(Locale.ROOT, "cost per connection at this point (stochastic, %d connections each; wall-clock speed"
                + " on this machine):%n", connections);
        out.printf(Locale.ROOT, "%-4s %8s %10s %11s %11s %10s %10s %8s %10s %5s %9s%n", "", "notes", "msgs/note",
                "bytes/note", "syncIds/nt", "cWrite/nt", "sWrite/nt", "cSlots", "1st note s", "dups", "conn/s");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "S%-3d %8.2f %10.2f %11.1f %11.1f %10.2f %10.2f %8.1f %10.3f %5d %9.0f%n",
                    r.strategy(), r.notes(), r.messagesPerNote(), r.bytesPerNote(), r.syncIdsPerNote(), r.clientWritesPerNote(),
                    r.serverWritesPerNote(), r.clientSlots(), r.firstNote(), r.duplicates(), r.connectionsPerSecond());
        }
    }

    /** Loss rates of the wireless link in the duplicates table. */
    static final double[] LOSSES = {0, 0.01, 0.05};
    /** A server's Deliver timeout, in mean round trips (2 t_cs) of the point. */
    static final double TIMEOUT_RTTS = 4;

    /**
     * Duplicates delivered on a lossy wireless link (beyond App. B, issue item 4): each Deliver and
     * acknowledgement lost with probability {@code loss}, a Deliver timed out after
     * {@link #TIMEOUT_RTTS} mean round trips, the session aborted by the core and restarted at once.
     *
     * @param notes      processings per connection (duplicates included)
     * @param duplicates notes the client processed again, in all connections
     * @param perThousand duplicates per 1000 processed notes
     * @param aborts     sessions aborted after a timeout, per connection
     * @param lost       messages the link lost, per connection
     */
    record LossRow(int strategy, double loss, double timeoutSeconds, int connections, double notes, long duplicates,
            double perThousand, double aborts, double lost) {
    }

    static List<LossRow> duplicatesUnderLoss(Params p, Simulator sim, long seed, int connections) {
        List<LossRow> rows = new ArrayList<>();
        double timeout = TIMEOUT_RTTS * 2 * ClosedForms.tcs(p);
        for (int s : CoreSimulator.LOSSY_STRATEGIES) {
            if (sim.missing(s).isPresent() || connections == 0) {
                continue;
            }
            for (double loss : LOSSES) {
                long notes = 0;
                long dups = 0;
                long aborts = 0;
                long lost = 0;
                for (int k = 0; k < connections; k++) {
                    Rig rig = CoreSimulator.lossyCount(s, p, seed, k, loss, timeout);
                    notes += rig.processed.size();
                    dups += rig.duplicates;
                    aborts += rig.aborts;
                    lost += rig.costs.lost;
                }
                rows.add(new LossRow(s, loss, timeout, connections, (double) notes / connections, dups,
                        notes == 0 ? Double.NaN : 1000.0 * dups / notes, (double) aborts / connections,
                        (double) lost / connections));
            }
        }
        return rows;
    }

    static void printLoss(List<LossRow> rows, PrintStream out) {
        if (rows.isEmpty()) {
            return;
        }
        out.printf(Locale.ROOT, "duplicates on a lossy wireless link (stochastic, %d connections each; Deliver timeout"
                + " %.2f s = %.0f mean round trips; abort, then reconnect to the same server):%n",
                rows.get(0).connections(), rows.get(0).timeoutSeconds(), TIMEOUT_RTTS);
        out.printf(Locale.ROOT, "%-4s %6s %8s %6s %10s %10s %8s%n", "", "loss", "notes", "dups", "dups/1000", "aborts/c",
                "lost/c");
        for (LossRow r : rows) {
            out.printf(Locale.ROOT, "S%-3d %5.0f%% %8.2f %6d %10.2f %10.2f %8.2f%n", r.strategy(), 100 * r.loss(),
                    r.notes(), r.duplicates(), r.perThousand(), r.aborts(), r.lost());
        }
    }
}
