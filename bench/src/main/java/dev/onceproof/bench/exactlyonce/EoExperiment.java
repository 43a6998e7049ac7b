package dev.onceproof.bench.exactlyonce;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Figures 4-8: every point analytic and simulated, then the paper's statements checked. */
public final class EoExperiment {

    private EoExperiment() {
    }

    /** The points of one curve of one figure. */
    public record CurveResult(Figures.Curve curve, List<Point> points) {
    }

    /**
     * @param base        the point every figure sweeps from (Table 1's base values by default)
     * @param seed        the stochastic mode's seed
     * @param connections connections per stochastic point
     * @param figures     per figure id, its curves
     * @param claims      the paper's statements with their verdicts
     * @param costs       beyond the paper: per strategy with a core, costs per connection at {@code base}
     * @param lossy       beyond the paper: duplicates delivered on a lossy wireless link at {@code base}
     * @param seconds     wall time of the whole run
     */
    public record Results(Params base, long seed, int connections, List<Figures.Figure> figureList,
            Map<String, List<CurveResult>> figures, List<Claim> claims, List<CostTable.Row> costs, List<CostTable.LossRow> lossy,
            double seconds) {
    }

    /**
     * Stochastic points per curve, at most: the mean-value mode runs at every point, the stochastic
     * one (hundreds of connections each) at every k-th point and the last, to keep the whole set
     * within minutes.
     */
    static final int STOCHASTIC_POINTS = 6;

    public static Results run(Params base, Simulator sim, long seed, int connections) {
        long start = System.nanoTime();
        Map<String, List<CurveResult>> out = new LinkedHashMap<>();
        List<Figures.Figure> figures = Figures.all();
        for (Figures.Figure f : figures) {
            List<CurveResult> curves = new ArrayList<>();
            for (Figures.Curve c : f.curves()) {
                Params cp = c.params(base);
                List<Point> pts = new ArrayList<>();
                int every = Math.max(1, (f.xs().length + STOCHASTIC_POINTS - 1) / STOCHASTIC_POINTS);
                for (int i = 0; i < f.xs().length; i++) {
                    double x = f.xs()[i];
                    Params p = cp.with(f.x(), x);
                    int n = i % every == 0 || i == f.xs().length - 1 ? connections : 0;
                    long pointSeed = seed ^ (31L * f.id().hashCode() + 17L * c.label().hashCode()) ^ Double.hashCode(x);
                    pts.add(new Point(c.strategy(), x, p, ClosedForms.ratio(c.strategy(), p),
                            sim.simulate(c.strategy(), p, pointSeed, n)));
                }
                curves.add(new CurveResult(c, pts));
            }
            out.put(f.id(), curves);
        }
        List<Claim> claims = PaperClaims.evaluate(base, out, sim, seed, connections);
        List<CostTable.Row> costs = CostTable.measure(base, sim, seed, connections);
        List<CostTable.LossRow> lossy = CostTable.duplicatesUnderLoss(base, sim, seed, connections);
        return new Results(base, seed, connections, figures, out, claims, costs, lossy,
                (System.nanoTime() - start) / 1e9);
    }
}
