package dev.onceproof.bench.causal;

import dev.onceproof.causal.Mode;
import dev.onceproof.causal.Recovery;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The conclusion's claim (L295): RER "is an order of magnitude lower than systematic acknowledgments
 * in a broadcasting-based systems with a very high rate of communication". RER runs on the real core
 * (causal order, heartbeats on so that lost last events are recovered) over the rate x loss x w grid;
 * the acknowledgement baselines run the same workload. Costs are per delivered (event, remote node)
 * pair: control messages (everything but an event's first transmission), all messages, and bytes.
 * The paper's RER (one retry after RTO, no heartbeats) runs on the lossy cells too, to count what it
 * never delivers, and again under L240's reading ({@link Recovery#RESTART}: a message that shows a gap
 * whose retry ran out starts the wait again), which separates a lost request and its retry (recovered
 * then) from a lost last event (revealed by no later message). Every heartbeat RER sends is charged,
 * those after the last event included: they are what recovers a lost last event.
 */
final class NetworkCost {

    /**
     * @param rates     global event rates r
     * @param losses    per-message loss probabilities
     * @param waits     RER waits w (model time)
     * @param heartbeat RER heartbeat interval (model time)
     * @param ackDelay  cumulative-ack delay (model time)
     */
    record Config(int n, double lambda, int events, double[] rates, double[] losses, double[] waits,
            double heartbeat, double ackDelay, int payload, long seed) {
    }

    /**
     * One cell of the grid.
     *
     * @param rerControl     requests + resends + heartbeats per delivered pair
     * @param rerHeartbeats  heartbeats per delivered pair (part of rerControl)
     * @param blue           Fig. 1 blue outcomes (false positives) per pair
     * @param undelivered    pairs RER with heartbeats left undelivered at the end of the drain
     * @param faithfulUndelivered pairs the paper's RER (no heartbeat) left undelivered; -1 if not run
     * @param faithfulLater the most events issued after an event the paper's RER left undelivered
     * @param faithfulNeverReceived of those pairs, how many never received a copy (the others arrived and
     *                     wait in the buffer behind a missing dependency); -1 if not run
     * @param deliveredTwice deliveries of an event already delivered at that node (the core promises 0)
     * @param rerIdleHeartbeats heartbeats sent after the last event, per delivered pair (part of rerControl
     *                     and rerHeartbeats: sent during the drain of 6 RTO + 4 heartbeat intervals)
     * @param restartUndelivered pairs the paper's RER under L240's reading left undelivered; -1 if not run
     * @param restartLater  the most events issued after an event the L240 reading left undelivered (-1: none)
     * @param restartNeverReceived of those pairs, how many never received a copy; -1 if not run
     * @param tailEvents    events issued in the last w + 2 RTO + 10 mean latencies of the workload: a
     *                     lost copy among them may be revealed by no message that arrives after its
     *                     retry ran out, so even the L240 reading may leave it missing
     */
    record Cell(double rate, double loss, double w, long pairs, long deliveredTwice, long faithfulLater,
            long faithfulNeverReceived, double rerControl, double rerHeartbeats,
            double rerAll, double rerControlBytes, double rerAllBytes, double requests, double blue,
            double meanLatency, long undelivered, long faithfulUndelivered, double eachControl, double eachAll,
            double eachControlBytes, double eachAllBytes, double cumControl, double cumAll, double cumControlBytes,
            double cumAllBytes, double rerIdleHeartbeats, long restartUndelivered, long restartLater,
            long restartNeverReceived, long tailEvents) {

        double ratioEachControl() {
            return eachControl / rerControl;
        }

        double ratioCumControl() {
            return cumControl / rerControl;
        }

        double ratioEachAll() {
            return eachAll / rerAll;
        }

        double ratioEachAllBytes() {
            return eachAllBytes / rerAllBytes;
        }

        double ratioCumAll() {
            return cumAll / rerAll;
        }
    }

    private NetworkCost() {
    }

    static List<Cell> run(Config c) {
        var model = new LatencyModel.Exponential(c.lambda());
        double rto = Equations.rto(model, Equations.RtoReading.STANDARD_DEVIATION);
        double drain = 6 * rto + 4 * c.heartbeat();
        List<Cell> cells = new ArrayList<>();
        int i = 0;
        for (double rate : c.rates()) {
            for (double loss : c.losses()) {
                for (double w : c.waits()) {
                    long seed = c.seed() * 7919 + i++;
                    var wl = SimSpec.Workload.roundRobin(c.n(), rate, c.events());
                    SimRun r = GroupSim.run(new SimSpec(c.n(), Mode.CAUSAL, model, loss, w, rto, c.heartbeat(),
                            c.payload(), wl, drain, seed));
                    long[] faithful = {-1, -1, -1};
                    long[] restart = {-1, -1, -1};
                    if (loss > 0 && w == c.waits()[c.waits().length - 1]) {
                        faithful = paperRecovery(c, model, loss, w, rto, wl, drain, seed, Recovery.FAITHFUL);
                        restart = paperRecovery(c, model, loss, w, rto, wl, drain, seed, Recovery.RESTART);
                    }
                    long tail = Math.round(rate * (w + 2 * rto + 10 / c.lambda()));
                    int dataBytes = (int) (r.bytes(SimRun.Kind.DATA) / r.count(SimRun.Kind.DATA));
                    var each = AckBaselines.ackEach(c.n(), c.events(), model, loss, rto, dataBytes,
                            GroupSim.streams(seed + 1));
                    var cum = AckBaselines.ackCumulative(c.n(), c.events(), rate, model, loss, rto, c.ackDelay(),
                            dataBytes, GroupSim.streams(seed + 2));
                    cells.add(cell(rate, loss, w, r, faithful, restart, tail, each, cum));
                }
            }
        }
        return cells;
    }

    /** The paper's RER (no heartbeat) on the same workload and seed: undelivered, later, never received. */
    private static long[] paperRecovery(Config c, LatencyModel model, double loss, double w, double rto,
            SimSpec.Workload wl, double drain, long seed, Recovery recovery) {
        SimRun paper = GroupSim.run(new SimSpec(c.n(), Mode.CAUSAL, model, loss, w, rto, 0, c.payload(), wl, drain, seed,
                recovery));
        return new long[] {undelivered(paper), laterThanUndelivered(paper), neverReceived(paper)};
    }

    private static Cell cell(double rate, double loss, double w, SimRun r, long[] faithful, long[] restart, long tail,
            AckBaselines.Cost each, AckBaselines.Cost cum) {
        long delivered = 0;
        long blue = 0;
        long requested = 0;
        double latency = 0;
        for (int g = 0; g < r.events; g++) {
            for (int j = 0; j < r.n; j++) {
                if (!r.remote(g, j)) {
                    continue;
                }
                if (!Double.isNaN(r.delivery[g][j])) {
                    delivered++;
                    latency += r.delivery[g][j] - r.issue[g];
                }
                blue += r.blue(g, j) ? 1 : 0;
                requested += r.requested(g, j) ? 1 : 0;
            }
        }
        long pairs = (long) r.events * (r.n - 1);
        double d = delivered;
        long control = r.count(SimRun.Kind.REQUEST) + r.count(SimRun.Kind.RESEND) + r.count(SimRun.Kind.HEARTBEAT);
        long controlBytes = r.bytes(SimRun.Kind.REQUEST) + r.bytes(SimRun.Kind.RESEND) + r.bytes(SimRun.Kind.HEARTBEAT);
        return new Cell(rate, loss, w, pairs, r.deliveredTwice, faithful[1], faithful[2], control / d,
                r.count(SimRun.Kind.HEARTBEAT) / d,
                (control + r.count(SimRun.Kind.DATA)) / d, controlBytes / d,
                (controlBytes + r.bytes(SimRun.Kind.DATA)) / d, requested / (double) pairs, blue / (double) pairs,
                latency / d, pairs - delivered, faithful[0],
                each.controlMessages() / (double) each.pairs(), (each.controlMessages() + each.firstData())
                        / (double) each.pairs(), each.controlBytes() / (double) each.pairs(),
                (each.controlBytes() + each.dataBytes()) / (double) each.pairs(),
                cum.controlMessages() / (double) cum.pairs(), (cum.controlMessages() + cum.firstData())
                        / (double) cum.pairs(), cum.controlBytes() / (double) cum.pairs(),
                (cum.controlBytes() + cum.dataBytes()) / (double) cum.pairs(), r.idleHeartbeats / d, restart[0],
                restart[1], restart[2], tail);
    }

    /** The event index of every remote (event, node) pair whose cell of {@code times} is NaN (never happened). */
    private static IntStream missing(SimRun r, double[][] times) {
        return IntStream.range(0, r.events).flatMap(g -> IntStream.range(0, r.n)
                .filter(j -> r.remote(g, j) && Double.isNaN(times[g][j])).map(j -> g));
    }

    /** How many events were issued after the earliest event some node never got (-1: none). */
    static long laterThanUndelivered(SimRun r) {
        return missing(r, r.delivery).map(g -> r.events - 1 - g).max().orElse(-1);
    }

    static long neverReceived(SimRun r) {
        return missing(r, r.reception).count();
    }

    static long undelivered(SimRun r) {
        return missing(r, r.delivery).count();
    }
}
