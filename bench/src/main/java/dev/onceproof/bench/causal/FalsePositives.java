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
    record Point(double w, double rho, long trials, long blue, long requests, long red, double eq11) {
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
        var streams = GroupSim.streams(seed);
        SimSpec spec = new SimSpec(3, Mode.UNORDERED, model, 0, w, rto, 0, 0, workload, 1000 / lambda, seed);
        for (long i = 0; i < trials; i++) {
            SimRun r = GroupSim.run(spec, streams);
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
        }
        return new Point(w, rho, trials, blue, requests, red, Equations.falsePositiveSurface(lambda, w, rho));
    }
}
