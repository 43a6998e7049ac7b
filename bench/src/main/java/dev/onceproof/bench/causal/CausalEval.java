package dev.onceproof.bench.causal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Runs every experiment of {@code ./onceproof bench causal} and checks the paper's statements on them. */
final class CausalEval {

    /**
     * @param sweep   Fig. 1 points at rho = ln 2 / lambda, one per w (the plot and the 3/32 check)
     * @param offPeak Fig. 1 points away from rho* (Eq. 11's shape; nothing above the maximum)
     * @param system  whole-group false positives, per rate and w
     */
    record Results(EvalConfig config, List<Deliverability.Result> deliverability, List<FalsePositives.Point> sweep,
            List<FalsePositives.Point> offPeak, List<FalsePositives.SystemPoint> system,
            List<NetworkCost.Cell> cost, List<Check> checks, double seconds) {
    }

    private CausalEval() {
    }

    static Results run(EvalConfig c, PrintStream progress) {
        long start = System.nanoTime();
        List<Deliverability.Result> deliv = new ArrayList<>();
        for (Deliverability.Config d : List.of(c.small(), c.example(), c.mixture())) {
            Deliverability.Result r = Deliverability.run(d);
            progress.printf(Locale.ROOT, "deliverability %s: %.1fs%n", d.name(), r.seconds());
            deliv.add(r);
        }
        long t0 = System.nanoTime();
        long trials = Math.max(500, Math.round(c.trials() * c.length()));
        double rhoStar = Equations.worstRho(c.lambda());
        List<FalsePositives.Point> sweep = new ArrayList<>();
        int k = 0;
        for (double w : c.waits()) {
            sweep.add(FalsePositives.run(c.lambda(), w, rhoStar, trials, c.seed() * 101 + k++));
        }
        List<FalsePositives.Point> off = new ArrayList<>();
        for (double w : c.rhoWaits()) {
            for (double rho : c.rhos()) {
                off.add(FalsePositives.run(c.lambda(), w, rho, trials, c.seed() * 101 + k++));
            }
        }
        progress.printf(Locale.ROOT, "false positives, Fig. 1 scenario: %d points x %d trials, %.1fs%n",
                sweep.size() + off.size(), trials, (System.nanoTime() - t0) / 1e9);
        t0 = System.nanoTime();
        List<FalsePositives.SystemPoint> system = new ArrayList<>();
        for (double rate : c.rates()) {
            for (double w : c.costWaits()) {
                system.add(FalsePositives.system(5, c.lambda(), rate, w, c.systemEvents(), 4, c.seed() * 103 + k++));
            }
        }
        progress.printf(Locale.ROOT, "false positives, whole group: %d points, %.1fs%n", system.size(),
                (System.nanoTime() - t0) / 1e9);
        t0 = System.nanoTime();
        List<NetworkCost.Cell> cost = NetworkCost.run(c.cost());
        progress.printf(Locale.ROOT, "network cost: %d cells, %.1fs%n", cost.size(), (System.nanoTime() - t0) / 1e9);
        List<Check> checks = EvalChecks.evaluate(c, deliv, sweep, off, system, cost);
        return new Results(c, deliv, sweep, off, system, cost, checks, (System.nanoTime() - start) / 1e9);
    }
}
