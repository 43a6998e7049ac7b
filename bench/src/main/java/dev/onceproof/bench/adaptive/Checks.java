package dev.onceproof.bench.adaptive;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The paper's claims, each checked on the measured numbers. The first contender is checked as the
 * unlimited horizon algorithm (Fig. 2, the proof of Theorem 6's reading), the second as the limited
 * horizon algorithm (Fig. 3), and a fourth, if present, as Fig. 2 read literally (Theorems 4 and 6
 * hold for both readings).
 *
 * <p>"Eventually" and "in the limit" are read on finite runs as: over the last quarter of the run
 * (estimate below 2X), successive quarters (L/A falls), or the second half (L/A at most 1/p).
 */
final class Checks {

    private Checks() {
    }

    static List<Check> evaluate(AdaptiveConfig cfg, Map<String, Scenario> scenarios,
            Map<String, List<RunResult>> runs, List<Rounds.Result> history, List<Rounds.Result> theorem11,
            List<Rounds.Silence> silence) {
        List<Check> out = new ArrayList<>();
        out.add(condition1(runs, history, theorem11));
        out.add(powersOfTwo(runs));
        out.add(lostAreSummaryRejected(runs));
        Scenario steps = scenarios.get("steps");
        Scenario spikes = scenarios.get("spikes");
        Scenario sparse = scenarios.get("sparse");
        out.add(belowTwoX("theorem4-unlimited", "Theorem 4 (Condition 2)",
                "unlimited horizon: once the execution is (t, X)-bounded the estimate ends below 2X",
                steps, runs.get("steps").get(0)));
        out.add(belowTwoX("theorem8-limited-steps", "Theorem 8 (Condition 2)",
                "limited horizon: once the execution is (t, X, S, H)-bounded the estimate ends below 2X",
                steps, runs.get("steps").get(1)));
        out.add(belowTwoX("theorem8-limited-spikes", "Theorem 8 (Condition 2)",
                "limited horizon: with H spikes in every S arrivals the estimate still ends below 2X",
                spikes, runs.get("spikes").get(1)));
        out.add(theorem6("theorem6-unlimited", sparse, runs.get("sparse").get(0)));
        if (runs.get("steps").size() > 3) {
            out.add(belowTwoX("theorem4-unlimited-literal", "Theorem 4 (Condition 2), Fig. 2 as printed",
                    "unlimited horizon read literally: the estimate ends below 2X", steps, runs.get("steps").get(3)));
            out.add(theorem6("theorem6-unlimited-literal", sparse, runs.get("sparse").get(3)));
        }
        out.add(theorem10(cfg, spikes, runs.get("spikes").get(1)));
        out.add(theorem10(cfg, sparse, runs.get("sparse").get(1)));
        out.add(history(history.get(0), history.get(1)));
        out.add(theorem11(theorem11.get(0), theorem11.get(1), cfg));
        out.add(theorem11Silence(silence));
        return out;
    }

    private static Check condition1(Map<String, List<RunResult>> runs, List<Rounds.Result> history,
            List<Rounds.Result> theorem11) {
        long violations = 0;
        long copies = 0;
        long runsCount = 0;
        for (List<RunResult> rs : runs.values()) {
            for (RunResult r : rs) {
                violations += r.violations();
                copies += r.copies();
                runsCount++;
            }
        }
        for (Rounds.Result r : history) {
            violations += r.violations();
        }
        for (Rounds.Result r : theorem11) {
            violations += r.violations();
        }
        return new Check("condition1", "Theorem 2 (Condition 1)",
                "no duplicate or out-of-order message is accepted, whatever the estimator",
                violations == 0, violations + " accepted duplicates/out-of-order in " + runsCount
                        + " scenario runs and the round experiments; " + copies + " network duplicates presented");
    }

    private static Check lostAreSummaryRejected(Map<String, List<RunResult>> runs) {
        long lost = 0;
        long other = 0;
        for (List<RunResult> rs : runs.values()) {
            for (RunResult r : rs) {
                lost += r.lost();
                other += r.lostNotSummary();
            }
        }
        return new Check("lost-accounting", "Section 2 (no table-rejected message is lost)",
                "every lost message (not a duplicate, not out of order, rejected) was summary-rejected",
                other == 0, lost + " lost messages in all scenario runs, " + other + " of them not summary-rejected");
    }

    private static Check powersOfTwo(Map<String, List<RunResult>> runs) {
        long bad = 0;
        long collections = 0;
        for (List<RunResult> rs : runs.values()) {
            for (int i = 0; i < rs.size(); i++) {
                if (i == 2) {
                    continue; // the fixed-rho baseline: any rho, not a power of two
                }
                RunResult r = rs.get(i);
                bad += r.badEstimates();
                collections += r.collections();
            }
        }
        return new Check("powers-of-two", "Figs. 2 and 3 (ltime-est: powers of 2, initially 1)",
                "every adaptive estimate is a power of two >= 1", bad == 0,
                bad + " bad estimates in " + collections + " collections");
    }

    private static Check belowTwoX(String id, String paper, String claim, Scenario sc, RunResult r) {
        long from = sc.ticks() * 3 / 4;
        long max = r.series().maxEstimateFrom(from);
        long twoX = 2 * sc.boundX();
        long conv = r.series().convergedAt(twoX);
        return new Check(id, paper, claim + " [" + sc.name() + ", " + r.contender() + "]", max < twoX,
                String.format(Locale.ROOT, "X=%d (bounded from t=%d): max estimate over the last quarter %d"
                        + " vs 2X=%d; below 2X for good from t'=%s; final %d", sc.boundX(), sc.boundFrom(), max,
                        twoX, conv < 0 ? "never" : Long.toString(conv), r.finalEstimate()));
    }

    private static Check theorem6(String id, Scenario sc, RunResult r) {
        long t = sc.ticks();
        Series s = r.series();
        double[] cumulative = {s.lossRatioBetween(0, t / 4), s.lossRatioBetween(0, t / 2),
            s.lossRatioBetween(0, 3 * t / 4), s.lossRatioBetween(0, t)};
        double first = s.lossRatioBetween(0, t / 4);
        double last = s.lossRatioBetween(3 * t / 4, t);
        boolean falling = cumulative[0] > cumulative[1] && cumulative[1] > cumulative[2]
                && cumulative[2] > cumulative[3];
        return new Check(id, "Theorem 6 (Condition 3, delta = 0)",
                "unlimited horizon: L/A tends to 0 [" + sc.name() + ", " + r.contender() + "]",
                falling && last < first,
                String.format(Locale.ROOT, "L_u/A_u at quarters %.5f > %.5f > %.5f > %.5f required;"
                        + " L/A within the first quarter %.5f, within the last %.5f (L=%d, A=%d)",
                        cumulative[0], cumulative[1], cumulative[2], cumulative[3], first, last,
                        r.lost(), r.accepted()));
    }

    private static Check theorem10(AdaptiveConfig cfg, Scenario sc, RunResult r) {
        long t = sc.ticks();
        double half = r.series().lossRatioBetween(t / 2, t);
        double bound = 1.0 / cfg.p();
        return new Check("theorem10-limited-" + sc.name(), "Theorem 10 (Condition 3, delta = 1/p)",
                "limited horizon: L/A tends to at most 1/p [" + sc.name() + ", " + r.contender() + "]",
                half <= bound,
                String.format(Locale.ROOT, "L/A over the second half %.5f vs 1/p = %.5f; whole run %.5f"
                        + " (L=%d, A=%d)", half, bound, r.lossRatio(), r.lost(), r.accepted()));
    }

    private static Check history(Rounds.Result unlimited, Rounds.Result limited) {
        int n = Math.min(unlimited.convergence().size(), limited.convergence().size());
        boolean enough = n >= 4;
        double u = enough ? (double) unlimited.round(n) / unlimited.round(2) : Double.NaN;
        double l = enough ? (double) limited.round(n) / limited.round(2) : Double.NaN;
        return new Check("history", "Sections 1 and 3.3",
                "after a long history the unlimited horizon comes down more slowly; the limited horizon does not",
                enough && u >= 2 && l <= 1.5 && !unlimited.capped() && !limited.capped(),
                String.format(Locale.ROOT, "ticks from a burst's end to estimate < 2X (X=%d): unlimited round 2"
                        + " %d, round %d %d (x%.2f, need >= 2); limited round 2 %d, round %d %d (x%.2f, need <= 1.5)",
                        unlimited.x(), enough ? unlimited.round(2) : -1, n, enough ? unlimited.round(n) : -1, u,
                        enough ? limited.round(2) : -1, n, enough ? limited.round(n) : -1, l));
    }

    private static Check theorem11Silence(List<Rounds.Silence> silence) {
        boolean pass = true;
        StringBuilder sb = new StringBuilder();
        for (Rounds.Silence s : silence) {
            boolean sameState = s.stateAtT().stream().distinct().count() == 1;
            boolean exceeds = true;
            for (int i = 0; i < s.silences().size(); i++) {
                exceeds &= s.convergence().get(i) > s.silences().get(i);
            }
            pass &= sameState && exceeds;
            sb.append(String.format(Locale.ROOT, "%s: state at t %s (%s); silence %s -> t' - t %s. ", s.contender(),
                    sameState ? "identical" : "DIFFERS", s.stateAtT().get(0), s.silences(), s.convergence()));
        }
        return new Check("theorem11-silence", "Theorem 11 (proof: no messages in [t_i, t_i + B(q_t_i)])",
                "no function of the state at t bounds t' - t: same q_t, longer silence, later convergence",
                pass, sb.toString().strip());
    }

    private static Check theorem11(Rounds.Result unlimited, Rounds.Result limited, AdaptiveConfig cfg) {
        List<Long> c = unlimited.convergence();
        int q = c.size() / 4;
        double early = q == 0 ? Double.NaN : c.subList(0, q).stream().mapToLong(Long::longValue).average().orElse(0);
        double late = q == 0 ? Double.NaN
                : c.subList(c.size() - q, c.size()).stream().mapToLong(Long::longValue).average().orElse(0);
        return new Check("theorem11", "Theorem 11",
                "the construction delays convergence (t' - t) more the longer the prefix [unlimited]",
                q > 0 && late >= 2 * early && !unlimited.capped(),
                String.format(Locale.ROOT, "t' - t_i by round (unlimited) %s: mean of the first %d rounds %.1f,"
                        + " of the last %d %.1f (need x2); limited %s, bounded by (p*M+1)/R = %.1f as p is fixed",
                        c, q, early, q, late, limited.convergence(),
                        (cfg.p() * (double) cfg.s() + 1) / cfg.rate()));
    }
}
