package dev.onceproof.bench.causal;

/**
 * What {@code ./onceproof bench causal} runs. {@link #defaults} is the documented run; {@code length}
 * scales every sample size (events, trials) for a quick look or the smoke test.
 *
 * @param seed      every random draw derives from it: same seed and length, same numbers
 * @param length    1.0 for the documented run, smaller for a quick check
 * @param lambda    exponential latency rate of the false-positive and cost experiments (Eq. 11 sets 1)
 * @param waits     w values of the false-positive sweep at rho = ln 2 / lambda (the plot)
 * @param rhoWaits  w values at which Eq. 11 is also checked away from its maximum
 * @param rhos      the rho values checked there
 * @param trials    Fig. 1 trials per (w, rho) point
 * @param rates     global event rates of the whole-group experiments (cost, system false positives)
 * @param losses    loss probabilities of the cost experiment
 * @param costWaits w values of the cost experiment
 */
record EvalConfig(long seed, double length, double lambda, double[] waits, double[] rhoWaits, double[] rhos,
        long trials, double[] rates, double[] losses, double[] costWaits) {

    EvalConfig {
        Params.require("length", length, length > 0 && length <= 10, "must be in (0, 10]");
        Params.require("lambda", lambda, lambda > 0 && Double.isFinite(lambda), "must be finite and > 0");
    }

    static EvalConfig defaults(long seed, double length) {
        return new EvalConfig(seed, length, 1.0, new double[] {0, 0.5, 1, 1.5, 2, 3}, new double[] {0, 1, 3},
                new double[] {0.3, 1.2, 2.5}, 40_000, new double[] {1, 5, 30}, new double[] {0, 0.01, 0.05, 0.1},
                new double[] {1, 3});
    }

    int scaled(int full, int min) {
        return (int) Math.max(min, Math.round(full * length));
    }

    /** The two deliverability workloads: a small group, and the paper's worked example (section 4.3). */
    Deliverability.Config small() {
        return new Deliverability.Config("n=5, lambda=1, r=5", 5, new LatencyModel.Exponential(1), 5, scaled(3000, 400), 8, 0.99, 16, 0.2,
                seed);
    }

    /**
     * n = 10, lambda = 0.3, r = 30: the window is 680 events, so the warm-up drops the first 750 (a
     * short run keeps at least 250 after it, and fewer replications).
     */
    Deliverability.Config example() {
        int events = scaled(3000, 1000);
        return new Deliverability.Config("n=10, lambda=0.3, r=30 (worked example)", 10,
                new LatencyModel.Exponential(0.3), 30, events,
                scaled(6, 2), 0.99, 16, 750.0 / events, seed + 1);
    }

    /**
     * Eq. 2's mixture with PBS-like parameters (the notes' recollection of PBS [2] Table 3, LNKD-SSD, not
     * verified against that paper: 91.22% Pareto x_m = 0.235 ms, alpha = 10; 8.78% Exp lambda = 1.66/ms);
     * mean latency 0.29 ms, so r = 20 per ms is about 6 events per mean latency.
     */
    Deliverability.Config mixture() {
        return new Deliverability.Config("n=5, Pareto-exponential mixture, r=20/ms", 5,
                new LatencyModel.ParetoExponential(0.0878, 1.66, 10, 0.235), 20, scaled(3000, 400), 6, 0.99, 16, 0.2,
                seed + 3);
    }

    NetworkCost.Config cost() {
        return new NetworkCost.Config(5, lambda, scaled(2000, 200), rates, losses, costWaits, 10 / lambda,
                1 / lambda, 100, seed + 2);
    }

    int systemEvents() {
        return scaled(1500, 200);
    }
}
