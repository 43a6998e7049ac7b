package dev.onceproof.bench.adaptive;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs every scenario and round experiment for every contender, then the theorem checks. */
public final class AdaptiveExperiment {

    /** Rounds of the history and Theorem 11 experiments (reported at 1, 2, 4, 8, 16, ...). */
    public static final int ROUNDS = 16;

    /** Silences after t in the Theorem 11 silence variant (ticks). */
    public static final List<Long> SILENCES = List.of(0L, 250L, 1000L, 4000L, 16000L);

    /** Everything measured in one run of the experiment. */
    public record Results(AdaptiveConfig config, List<Contender> contenders,
            Map<String, Scenario> scenarios, Map<String, List<RunResult>> runs,
            List<Rounds.Result> history, List<Rounds.Result> theorem11, List<Rounds.Silence> silence,
            List<Check> checks) {
    }

    private AdaptiveExperiment() {
    }

    public static Results run(AdaptiveConfig cfg) {
        return run(cfg, cfg.contenders());
    }

    /**
     * @param contenders the first is checked as the unlimited horizon, the second as the limited
     *                   horizon (tests substitute broken ones), the third is a baseline, and a fourth,
     *                   if present, is checked as Fig. 2 read literally (Theorems 4 and 6, history)
     */
    public static Results run(AdaptiveConfig cfg, List<Contender> contenders) {
        Map<String, Scenario> scenarios = new LinkedHashMap<>();
        Map<String, List<RunResult>> runs = new LinkedHashMap<>();
        for (Scenario sc : Scenarios.all(cfg)) {
            scenarios.put(sc.name(), sc);
            List<RunResult> rs = new ArrayList<>();
            for (Contender c : contenders) {
                rs.add(sc.run(c, cfg));
            }
            runs.put(sc.name(), rs);
        }
        List<Rounds.Result> history = new ArrayList<>();
        List<Rounds.Result> theorem11 = new ArrayList<>();
        List<Rounds.Silence> silence = new ArrayList<>();
        for (Contender c : contenders.subList(0, 2)) {
            history.add(Rounds.history(c, cfg, ROUNDS));
            theorem11.add(Rounds.theorem11(c, cfg, ROUNDS));
            silence.add(Rounds.theorem11Silence(c, cfg, SILENCES));
        }
        if (contenders.size() > 3) {
            // Fig. 2 read literally: where the two readings part is the history experiment.
            history.add(Rounds.history(contenders.get(3), cfg, ROUNDS));
        }
        List<Check> checks = Checks.evaluate(cfg, scenarios, runs, history, theorem11, silence);
        return new Results(cfg, contenders, scenarios, runs, history, theorem11, silence, checks);
    }
}
