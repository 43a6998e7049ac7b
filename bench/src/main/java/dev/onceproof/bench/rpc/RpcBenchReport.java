package dev.onceproof.bench.rpc;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the rounds of {@link RpcBench} into the tables and the JSON document. Ratios are computed
 * per round (the two systems ran one right after the other in that round) and summarized by their
 * median, which is steadier than a ratio of medians on a machine shared with other work.
 */
public final class RpcBenchReport {

    /**
     * A ratio to report: numerator / denominator on one experiment, compared with a bound when the
     * issue sets one ({@code op} "<=" or ">="), or shown for information ({@code op} "info").
     */
    public record Target(String experiment, String numerator, String denominator, String op, double bound) {
        boolean met(double ratio) {
            return switch (op) {
                case "<=" -> ratio <= bound;
                case ">=" -> ratio >= bound;
                default -> true;
            };
        }

        String verdict(double ratio) {
            return op.equals("info") ? "(no target)" : "target " + op + " " + bound + ": " + (met(ratio) ? "met" : "MISSED");
        }

        public static Target info(String experiment, String numerator, String denominator) {
            return new Target(experiment, numerator, denominator, "info", Double.NaN);
        }
    }

    private final RpcBench.Results results;
    private final List<Target> targets;

    public RpcBenchReport(RpcBench.Results results, List<Target> targets) {
        this.results = results;
        this.targets = targets;
    }

    /** Per-round ratio numerator/denominator of elapsed time on one experiment. */
    public Summary ratio(String experiment, String numerator, String denominator) {
        return ratio(results.millis(), experiment, numerator, denominator);
    }

    /**
     * Ratio of the two systems' 10th-percentile rounds: the comparison in the machine's fast regime.
     * On this VM (guest idle polling off, so an idle vCPU halts and every wake-up is a VM exit) a
     * round runs either at loopback speed or several times slower, and a per-round ratio is
     * meaningless when the two systems of a round fell in different regimes; the fast rounds of each
     * system compare like with like.
     */
    public double fastRegimeRatio(String experiment, String numerator, String denominator) {
        return Summary.of(results.millis().get(numerator).get(experiment)).p10()
                / Summary.of(results.millis().get(denominator).get(experiment)).p10();
    }

    /** The same of CPU time. */
    public Summary cpuRatio(String experiment, String numerator, String denominator) {
        return ratio(results.cpuMillis(), experiment, numerator, denominator);
    }

    private static Summary ratio(Map<String, Map<String, List<Double>>> data, String experiment, String numerator,
                                 String denominator) {
        List<Double> num = data.get(numerator).get(experiment);
        List<Double> den = data.get(denominator).get(experiment);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < num.size(); i++) {
            ratios.add(num.get(i) / den.get(i));
        }
        return Summary.of(ratios);
    }

    public void print(PrintStream out) {
        RpcBench.Config c = results.config();
        table(out, RpcBench.SEQUENTIAL, "Figure 3-2 (a): one client, " + c.calls()
                + " sequential null calls", c.calls());
        table(out, RpcBench.MANY_CLIENTS, "Figure 3-3 (b): " + c.clients()
                + " clients, one null call each (own socket / connection id / TCP connection)", c.clients());
        out.println();
        out.println("Ratios of elapsed time (median of per-round ratios, [min, max] over " + c.rounds()
                + " rounds; CPU-time ratio and fast-regime ratio of 10th-percentile rounds alongside):");
        for (Target t : targets) {
            if (!results.millis().containsKey(t.numerator()) || !results.millis().containsKey(t.denominator())) {
                continue;
            }
            Summary r = ratio(t.experiment(), t.numerator(), t.denominator());
            Summary cpu = cpuRatio(t.experiment(), t.numerator(), t.denominator());
            double fast = fastRegimeRatio(t.experiment(), t.numerator(), t.denominator());
            out.printf("  %-15s %-30s %6.2f  [%.2f, %.2f]  cpu %5.2f  p10 %5.2f  %s%s%n", t.experiment(),
                    t.numerator() + " / " + t.denominator(), r.median(), r.min(), r.max(), cpu.median(), fast,
                    t.verdict(r.median()), t.op().equals("info") ? "" : " (p10: " + (t.met(fast) ? "met" : "MISSED") + ")");
        }
    }

    private void table(PrintStream out, String experiment, String title, int calls) {
        out.println();
        out.println(title + "; elapsed ms per round, " + results.config().rounds() + " rounds");
        out.printf("  %-24s %9s %9s %9s %9s %9s %10s %12s%n", "system", "median", "q1", "q3", "min", "max",
                "us/call", "cpu ms med");
        for (Map.Entry<String, Map<String, List<Double>>> e : results.millis().entrySet()) {
            Summary s = Summary.of(e.getValue().get(experiment));
            Summary cpu = Summary.of(results.cpuMillis().get(e.getKey()).get(experiment));
            out.printf("  %-24s %9.1f %9.1f %9.1f %9.1f %9.1f %10.1f %12.1f%n", e.getKey(), s.median(), s.q1(),
                    s.q3(), s.min(), s.max(), s.median() * 1000.0 / calls, cpu.median());
        }
    }

    /** The JSON document: configuration, summaries per system and experiment, ratios, targets. */
    public Map<String, Object> json() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("config", results.config());
        Map<String, Object> systems = new LinkedHashMap<>();
        results.millis().forEach((system, byExperiment) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            byExperiment.forEach((experiment, samples) -> m.put(experiment, Summary.of(samples)));
            systems.put(system, m);
        });
        doc.put("elapsedMillis", systems);
        Map<String, Object> cpuSystems = new LinkedHashMap<>();
        results.cpuMillis().forEach((system, byExperiment) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            byExperiment.forEach((experiment, samples) -> m.put(experiment, Summary.of(samples)));
            cpuSystems.put(system, m);
        });
        doc.put("processCpuMillis", cpuSystems);
        List<Map<String, Object>> ratios = new ArrayList<>();
        for (Target t : targets) {
            if (!results.millis().containsKey(t.numerator()) || !results.millis().containsKey(t.denominator())) {
                continue;
            }
            Summary r = ratio(t.experiment(), t.numerator(), t.denominator());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("experiment", t.experiment());
            m.put("ratio", t.numerator() + " / " + t.denominator());
            m.put("perRound", r);
            m.put("cpuPerRound", cpuRatio(t.experiment(), t.numerator(), t.denominator()));
            double fast = fastRegimeRatio(t.experiment(), t.numerator(), t.denominator());
            m.put("fastRegimeRatioP10", fast);
            if (!t.op().equals("info")) {
                m.put("target", t.op() + " " + t.bound());
                m.put("met", t.met(r.median()));
                m.put("metInFastRegime", t.met(fast));
            }
            ratios.add(m);
        }
        doc.put("ratios", ratios);
        return doc;
    }
}
