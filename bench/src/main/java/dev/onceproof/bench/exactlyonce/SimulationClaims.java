package dev.onceproof.bench.exactlyonce;

import dev.onceproof.bench.claims.PaperClaim.Basis;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Statements about the simulated columns: the mean-value mode reproduces the closed forms within 2%
 * at every simulated point (the simulator copies the analysis, notes Z23), and p_1 = p_2 = p_0
 * (App. B.1, L817-819) holds for the real Strategy 1 and 2 cores.
 */
final class SimulationClaims {

    private SimulationClaims() {
    }

    static final double TOLERANCE = 0.02;

    static List<Claim> evaluate(Params base, Map<String, List<EoExperiment.CurveResult>> figs, Simulator sim,
            long seed, int connections) {
        List<Claim> out = new ArrayList<>();
        out.add(meanValueWithin2Percent(figs));
        out.add(p1p2EqualP0(base, sim));
        return out;
    }

    private static Claim meanValueWithin2Percent(Map<String, List<EoExperiment.CurveResult>> figs) {
        String id = "meanvalue-within-2pct";
        String claim = "the mean-value simulation of the real cores reproduces p_i/p_0 within 2% at every simulated"
                + " point of every figure";
        int n = 0;
        double worst = 0;
        String where = "";
        // strategy -> [points not simulated, first reason]
        java.util.Map<Integer, Object[]> missing = new java.util.TreeMap<>();
        for (Map.Entry<String, List<EoExperiment.CurveResult>> f : figs.entrySet()) {
            for (EoExperiment.CurveResult c : f.getValue()) {
                for (Point pt : c.points()) {
                    Double mv = pt.simulated().meanValue();
                    if (mv == null) {
                        Object[] m = missing.computeIfAbsent(pt.strategy(), s -> new Object[] {0, pt.simulated().missing()});
                        m[0] = (Integer) m[0] + 1;
                        continue;
                    }
                    n++;
                    double err = relativeError(mv, pt.analytic().value());
                    if (err > worst) {
                        worst = err;
                        where = PaperClaims.fmt("%s %s at %s = %s (analytic %.4f, simulated %.4f)", f.getKey(),
                                c.curve().label(), figures(f.getKey()).x(), Params.num(pt.x()), pt.analytic().value(), mv);
                    }
                }
            }
        }
        List<String> notSimulated = new ArrayList<>();
        missing.forEach((s, m) -> notSimulated.add("S" + s + " at " + m[0] + " points (the first: " + m[1] + ")"));
        if (n == 0) {
            return Claim.notRun(id, "App. B, notes Z23", claim, "no point simulated: " + String.join("; ", notSimulated))
                    .basis(Basis.MEAN_VALUE);
        }
        return Claim.of(id, "App. B, notes Z23", claim, worst <= TOLERANCE, PaperClaims.fmt(
                "%d points; largest relative error %.3f%% at %s%s", n, 100 * worst, where,
                notSimulated.isEmpty() ? "" : "; not simulated: " + String.join("; ", notSimulated)))
                .basis(Basis.MEAN_VALUE).expected("the closed form's p_i/p_0 within 2% at every point");
    }

    private static Claim p1p2EqualP0(Params base, Simulator sim) {
        String id = "p1-p2-equal-p0";
        String claim = "p_1 = p_2 = p_0: Sequenced Streams deliver as fast as the baseline (mean-value simulation at"
                + " base values, within 2%)";
        for (int s = 0; s <= 2; s++) {
            Optional<String> why = sim.missing(s);
            if (why.isPresent()) {
                return Claim.notRun(id, "App. B.1, L817-819", claim, "S" + s + ": " + why.get()).basis(Basis.MEAN_VALUE);
            }
        }
        double p0 = sim.meanValue(0, base);
        double p1 = sim.meanValue(1, base);
        double p2 = sim.meanValue(2, base);
        double analytic = ClosedForms.p0(base).value();
        boolean ok = relativeError(p1, p0) <= TOLERANCE && relativeError(p2, p0) <= TOLERANCE
                && relativeError(p0, analytic) <= TOLERANCE;
        return Claim.of(id, "App. B.1, L817-819", claim, ok, PaperClaims.fmt(
                "notes per connection, simulated: S0 %.3f, S1 %.3f, S2 %.3f; closed form p_0 = %.3f", p0, p1, p2,
                analytic)).basis(Basis.MEAN_VALUE).expected("p_1 = p_2 = p_0 within 2%");
    }

    static double relativeError(double simulated, double analytic) {
        if (analytic == 0) {
            return Math.abs(simulated);
        }
        return Math.abs(simulated - analytic) / Math.abs(analytic);
    }

    private static Figures.Figure figures(String id) {
        return Figures.all().stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow();
    }
}
