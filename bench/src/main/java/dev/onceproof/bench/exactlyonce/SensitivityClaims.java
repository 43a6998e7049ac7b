package dev.onceproof.bench.exactlyonce;

import dev.onceproof.bench.claims.PaperClaim.Basis;
import java.util.ArrayList;
import java.util.List;

/**
 * Table 2's performance rows (L443-446) on the cores: "Sensitive to frequency of periodic server
 * synchronizations" (T_u) is ticked for Strategy 5 alone, and "Performance sensitive to connection
 * duration T_c" for Strategies 4-6, so Strategies 1-3 are not. Sensitive means: the stochastic
 * p_i/p_0 at the two ends of the sweep have disjoint 95% intervals; insensitive: they overlap and
 * the means differ by at most {@link #INSENSITIVE}.
 */
final class SensitivityClaims {

    private SensitivityClaims() {
    }

    static final double INSENSITIVE = 0.05;
    static final double[] TU = {50, 300, 1000};
    static final double[] TC = {5, 15, 45};

    static List<Claim> evaluate(Params base, Simulator sim, long seed, int connections) {
        if (connections < 2) {
            return List.of(
                    Claim.notRun("table2-tu-s5", "Table 2, L446", "T_u row", "stochastic mode not run").basis(Basis.STOCHASTIC),
                    Claim.notRun("table2-tc-s1-s3", "Table 2, L443", "T_c row", "stochastic mode not run").basis(Basis.STOCHASTIC));
        }
        return List.of(tu(5, base, sim, seed, connections), tc(new int[] {1, 2, 3}, base, sim, seed, connections));
    }

    /** One strategy's stochastic ratio over a sweep of {@code name}. */
    static List<Simulated.Estimate> sweep(int strategy, Params base, String name, double[] xs, Simulator sim, long seed,
            int connections) {
        List<Simulated.Estimate> out = new ArrayList<>();
        for (double x : xs) {
            Params p = base.with(name, x);
            out.add(sim.stochasticRatio(strategy, p, BehaviourClaims.pointSeed(seed, p), connections));
        }
        return out;
    }

    static boolean sensitive(List<Simulated.Estimate> s) {
        Simulated.Estimate a = s.get(0);
        Simulated.Estimate b = s.get(s.size() - 1);
        return Judge.below(a, b) || Judge.below(b, a);
    }

    static boolean insensitive(List<Simulated.Estimate> s) {
        return !sensitive(s) && Math.abs(s.get(0).mean() - s.get(s.size() - 1).mean()) <= INSENSITIVE;
    }

    private static String show(String name, double[] xs, List<Simulated.Estimate> s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < xs.length; i++) {
            b.append(PaperClaims.fmt("%s%s=%s %s", i == 0 ? "" : ", ", name, Params.num(xs[i]), Judge.show(s.get(i))));
        }
        return b.toString();
    }

    /**
     * T_u: Strategy {@code strategy}'s ratio must move with T_u (50, 300, 1000 s at T_r = 100). The
     * others' cores take no T_u (Strategy 4 and 6 servers sync on demand, 0-3 not at all), so their
     * insensitivity is by construction and not measured. Run on Strategy 4 the line FAILs.
     */
    static Claim tu(int strategy, Params base, Simulator sim, long seed, int connections) {
        List<Simulated.Estimate> s = sweep(strategy, base, "Tu", TU, sim, seed, connections);
        StringBuilder closed = new StringBuilder();
        for (double tu : TU) {
            closed.append(PaperClaims.fmt(" %s", PaperClaims.fmt("%.3f", ClosedForms.ratio(strategy, base.with("Tu", tu))
                    .value())));
        }
        return new Claim("table2-tu-s5", "Table 2, L446",
                "Strategy " + strategy + "'s performance is sensitive to the frequency of periodic server"
                        + " synchronizations (T_u swept at T_r = " + Params.num(base.Tr()) + ")",
                sensitive(s) ? Claim.Status.PASS : Claim.Status.FAIL,
                PaperClaims.fmt("stochastic p%d/p0: %s (%d connections each); App. B:%s; Strategies 0-4 and 6 take no"
                        + " T_u (by construction)", strategy, show("T_u", TU, s), connections, closed),
                "the T_u = 50 and T_u = 1000 intervals disjoint", Basis.STOCHASTIC, "");
    }

    /**
     * T_c: Strategies 1-3 insensitive (5, 15, 45 s at base values). Strategy 3's ratio falls with T_c
     * on the cores: its first q notes need no purge, so a connection shorter than q notes never waits
     * (App. B's steady rate leaves that start-up out, notes Z23). The reason is checked by giving R
     * room to spare (q = 40): the ratio must then be insensitive (GAP), else FAIL.
     */
    static Claim tc(int[] strategies, Params base, Simulator sim, long seed, int connections) {
        StringBuilder m = new StringBuilder();
        boolean ok = true;
        boolean s12 = true;
        for (int s : strategies) {
            List<Simulated.Estimate> e = sweep(s, base, "Tc", TC, sim, seed, connections);
            boolean ins = insensitive(e);
            ok &= ins;
            s12 &= s == 3 || ins;
            m.append(PaperClaims.fmt("%sS%d: %s%s", m.length() == 0 ? "" : "; ", s, show("T_c", TC, e),
                    ins ? "" : " (sensitive)"));
        }
        Claim.Status v;
        String reason = "";
        if (ok) {
            v = Claim.Status.PASS;
        } else {
            boolean explained = false;
            if (s12) { // only Strategy 3 moved: check its stated cause
                Params roomy = base.with("q", 40);
                List<Simulated.Estimate> r = sweep(3, roomy, "Tc", TC, sim, seed, connections);
                explained = insensitive(r);
                m.append(PaperClaims.fmt("; S3 with q = 40: %s", show("T_c", TC, r)));
            }
            v = explained ? Claim.Status.GAP : Claim.Status.FAIL;
            reason = "Strategy 3's first q notes need no purge, so while a connection delivers fewer than about q"
                    + " notes the client never waits; App. B's steady rate leaves this start-up out. With q = 40 (R never"
                    + " full) the ratio no longer depends on T_c" + (explained ? "" : " -- NOT confirmed here");
        }
        return new Claim("table2-tc-s1-s3", "Table 2, L443",
                "Strategies 1-3 are not sensitive to the connection duration T_c (their row has no tick)", v,
                m + PaperClaims.fmt(" (%d connections each)", connections),
                PaperClaims.fmt("for each of S1-S3 the T_c = 5 and 45 intervals overlap and the means differ by <= %.2f",
                        INSENSITIVE), Basis.STOCHASTIC, reason);
    }
}
