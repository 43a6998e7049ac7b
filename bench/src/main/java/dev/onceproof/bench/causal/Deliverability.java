package dev.onceproof.bench.causal;

import dev.onceproof.causal.Mode;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

/**
 * Section 4's question on the real core: how long after its issue is an event deliverable at
 * another node, without order (Eq. 1), with FIFO (Eqs. 3/7) and with causal order (Eqs. 4/8)? The
 * workload is the one Eqs. 7 and 8 assume (round robin, evenly spaced at rate r), exponential
 * latency, no loss and no recovery (w infinite), so that "deliverable" is what the core's delivery
 * guard says. The same runs with the Pareto-exponential mixture (Eq. 2) check Eqs. 2 and 7, which
 * hold for any latency model. Each mode runs {@code replications} independent groups; the simulated CDF at each t is
 * the mean over replications with a Student t interval (the pairs inside one run are not
 * independent, the runs are), see {@link Interval#shareOfReplications}.
 */
final class Deliverability {

    /** Modes in the order they are reported. */
    static final Mode[] MODES = {Mode.UNORDERED, Mode.FIFO, Mode.CAUSAL};

    /**
     * @param name         label in the report
     * @param n            nodes
     * @param model        one-way latency (Eq. 8 is derived for the exponential model only; for another it
     *                     is not computed)
     * @param rate         global event rate r
     * @param events       events per run
     * @param replications independent runs per mode
     * @param p            certainty for t(p) and the window (paper 4.3)
     * @param points       t grid size, from t(p)/points to t(p)
     * @param warmUp       share of the first events left out (they have fewer dependencies)
     */
    record Config(String name, int n, LatencyModel model, double rate, int events, int replications, double p,
            int points, double warmUp, long seed) {
    }

    /**
     * @param sim      per mode, the simulated P(deliverable by t) at each grid point
     * @param mean     per mode, the mean issue-to-deliverable time over all kept pairs
     * @param pairs    per mode, the number of (event, remote node) pairs per replication
     * @param samples  per mode, the latencies of the first replication (for the CDF plot)
     * @param pdZero   Algorithm 1's P(D &lt;= 0) on the causal run (share of pairs that never waited)
     */
    record Result(Config cfg, double tp, double window, double[] t, Map<Mode, Interval[]> sim, double[] eq1,
            double[] eq7, double[] eq8, double[] eq8corrected, Map<Mode, Double> mean, Map<Mode, Integer> pairs,
            Map<Mode, double[]> samples, double pdZero, double seconds) {
    }

    private Deliverability() {
    }

    static Result run(Config c) {
        return run(c, GroupSim.REAL);
    }

    static Result run(Config c, GroupSim.NodeFactory factory) {
        long start = System.nanoTime();
        LatencyModel model = c.model();
        double tp = Equations.visibilityTime(model, c.n(), c.p());
        double[] t = new double[c.points()];
        for (int j = 0; j < t.length; j++) {
            t[j] = tp * (j + 1) / t.length;
        }
        double conf = Interval.simultaneous(t.length);
        Map<Mode, Interval[]> sim = new EnumMap<>(Mode.class);
        Map<Mode, Double> mean = new EnumMap<>(Mode.class);
        Map<Mode, Integer> pairs = new EnumMap<>(Mode.class);
        Map<Mode, double[]> samples = new EnumMap<>(Mode.class);
        DoubleUnaryOperator pd = null;
        for (Mode mode : MODES) {
            double[][] perRep = new double[t.length][c.replications()];
            double sum = 0;
            long count = 0;
            for (int rep = 0; rep < c.replications(); rep++) {
                SimSpec spec = new SimSpec(c.n(), mode, model, 0, Double.POSITIVE_INFINITY, 1, 0, 0,
                        SimSpec.Workload.roundRobin(c.n(), c.rate(), c.events()), 10 * tp, c.seed() + 1000L * rep);
                SimRun r = GroupSim.run(spec, factory);
                double[] lat = latencies(r, (int) (c.warmUp() * c.events()));
                Arrays.sort(lat);
                for (int j = 0; j < t.length; j++) {
                    perRep[j][rep] = Ecdf.share(lat, t[j]);
                }
                for (double x : lat) {
                    sum += x;
                }
                count += lat.length;
                if (rep == 0) {
                    samples.put(mode, lat);
                    pairs.put(mode, lat.length);
                    if (mode == Mode.CAUSAL) {
                        pd = Equations.bufferWaitCdf(r.delivery, r.reception, r.origin);
                    }
                }
            }
            Interval[] iv = new Interval[t.length];
            for (int j = 0; j < t.length; j++) {
                iv[j] = Interval.shareOfReplications(perRep[j], pairs.get(mode), conf);
            }
            sim.put(mode, iv);
            mean.put(mode, sum / count);
        }
        double[] eq1 = new double[t.length];
        double[] eq7 = new double[t.length];
        double[] eq8 = new double[t.length];
        double[] eq8c = new double[t.length];
        for (int j = 0; j < t.length; j++) {
            eq1[j] = model.cdf(t[j]);
            eq7[j] = Equations.fifoGeneral(model, c.n(), c.rate(), tp, t[j]);
            if (model instanceof LatencyModel.Exponential e) {
                eq8[j] = Equations.causalGeneral(e.lambda(), c.n(), c.rate(), tp, t[j], pd);
                eq8c[j] = Equations.causalGeneralCorrected(e.lambda(), c.n(), c.rate(), tp, t[j], pd);
            } else {
                eq8[j] = Double.NaN; // Eq. 5, hence Eq. 8, exists for exponential latency only
                eq8c[j] = Double.NaN;
            }
        }
        return new Result(c, tp, Equations.window(tp, c.rate()), t, sim, eq1, eq7, eq8, eq8c, mean, pairs, samples,
                pd.applyAsDouble(0), (System.nanoTime() - start) / 1e9);
    }

    /** Issue-to-delivery times of every (event, remote node) pair after the warm-up. */
    static double[] latencies(SimRun r, int skip) {
        double[] out = new double[(r.events - skip) * (r.n - 1)];
        int k = 0;
        for (int g = skip; g < r.events; g++) {
            for (int j = 0; j < r.n; j++) {
                if (r.remote(g, j)) {
                    double d = r.delivery[g][j] - r.issue[g];
                    if (Double.isNaN(d)) {
                        throw new IllegalStateException("event " + g + " never delivered at node " + j
                                + " in a run without loss: the drain is too short or the core stalled");
                    }
                    out[k++] = d;
                }
            }
        }
        return out;
    }
}
