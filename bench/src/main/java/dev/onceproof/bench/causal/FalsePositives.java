package dev.onceproof.bench.causal;

import dev.onceproof.causal.Mode;

/**
 * Section 5.2 on the real core, in the scenario Eqs. 9-12 describe (Fig. 1): three nodes delivering
 * on receipt with the metadata used for recovery only (the system the paper states 3/32 e^(-w) for).
 * N2 issues A at time 0; N1 issues B at rho, so B depends on A iff A reached N1 by rho; N3 gets B,
 * and if A is missing waits w, asks N2 (request C), which resends (D). A trial is a false positive
 * (blue) when A's own data copy reaches N3 after the request left and before the resend came back.
 * Every latency is Exp(lambda), nothing is lost, each trial is a fresh group with its own seed.
 */
final class FalsePositives {

    static final int N1 = 0;
    static final int N2 = 1;
    static final int N3 = 2;

    /**
     * One (w, rho) point.
     *
     * @param blue      Fig. 1 blue: requested, original first (Eq. 11's event)
     * @param requests  trials in which N3 requested A
     * @param red       resend first (a recovery with a latency gain)
     */
    record Point(double w, double rho, long trials, long blue, long requests, long red, long rttAboveRto,
            double eq11) {
    }

    /**
     * The same rate in a whole group (n nodes, round robin at rate r, no loss, delivery on receipt):
     * blue outcomes per (event, remote node) pair, one value per independent replication.
     */
    record SystemPoint(int n, double rate, double w, long pairs, double[] perReplication, Interval blue,
            double bound) {
    }

    static SystemPoint system(int n, double lambda, double rate, double w, int events, int replications, long seed) {
        var model = new LatencyModel.Exponential(lambda);
        double rto = Equations.rto(model, Equations.RtoReading.STANDARD_DEVIATION);
        double[] per = new double[replications];
        long pairs = 0;
        for (int rep = 0; rep < replications; rep++) {
            SimRun r = GroupSim.run(new SimSpec(n, Mode.UNORDERED, model, 0, w, rto, 0, 0,
                    SimSpec.Workload.roundRobin(n, rate, events), 6 * rto, seed + 31L * rep));
            long blue = 0;
            for (int g = 0; g < r.events; g++) {
                for (int j = 0; j < n; j++) {
                    blue += r.remote(g, j) && r.blue(g, j) ? 1 : 0;
                }
            }
            long p = (long) r.events * (n - 1);
            per[rep] = blue / (double) p;
            pairs += p;
        }
        return new SystemPoint(n, rate, w, pairs, per, Interval.mean(per, Interval.FAMILY_LEVEL),
                Equations.maxFalsePositive(lambda, w));
    }

    private FalsePositives() {
    }

    static Point run(double lambda, double w, double rho, long trials, long seed) {
        Params.require("trials", trials, trials >= 1, "must be >= 1");
        var model = new LatencyModel.Exponential(lambda);
        double rto = Equations.rto(model, Equations.RtoReading.STANDARD_DEVIATION);
        var workload = new SimSpec.Workload(new double[] {0, rho}, new int[] {N2, N1});
        long blue = 0;
        long requests = 0;
        long red = 0;
        long slow = 0;
        var streams = GroupSim.streams(seed);
        SimSpec spec = new SimSpec(3, Mode.UNORDERED, model, 0, w, rto, 0, 0, workload, 1000 / lambda, seed);
        for (long i = 0; i < trials; i++) {
            SimRun r = GroupSim.run(spec, streams, GroupSim.REAL);
            int a = 0; // A is the workload's first event
            if (r.requested(a, N3)) {
                requests++;
            }
            if (r.blue(a, N3)) {
                blue++;
            }
            if (r.red(a, N3)) {
                red++;
            }
            // No loss: every request is answered. Its round trip exceeded RTO iff no resend came
            // within RTO of it (a retry leaves at RTO, so it cannot come back sooner).
            if (r.requested(a, N3) && r.firstResend[a][N3] - r.firstRequest[a][N3] > rto) {
                slow++;
            }
        }
        return new Point(w, rho, trials, blue, requests, red, slow, Equations.falsePositiveSurface(lambda, w, rho));
    }
}
