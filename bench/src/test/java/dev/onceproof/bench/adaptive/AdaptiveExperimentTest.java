package dev.onceproof.bench.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A short run of {@code ./onceproof bench adaptive}: every theorem check passes with the real
 * estimators, and the relevant check fails when the unlimited horizon estimator is broken.
 */
class AdaptiveExperimentTest {

    private static final AdaptiveConfig SHORT = AdaptiveConfig.defaults().withLength(0.25);

    @Test
    void everyTheoremCheckPassesOnAShortRun() {
        AdaptiveExperiment.Results res = AdaptiveExperiment.run(SHORT);
        assertThat(res.checks()).hasSize(14); // 12, and Theorems 4 and 6 for Fig. 2 read literally
        assertThat(res.checks()).allSatisfy(c -> assertThat(c.pass()).as(c.id() + ": " + c.measured()).isTrue());
    }

    @Test
    void anEstimatorThatNeverLowersFailsTheorem4() {
        Map<String, Check> checks = runWithUnlimited(
                new Contender("never-lowers", BrokenEstimators.NeverLowers::new, true));
        assertThat(checks.get("theorem4-unlimited").pass()).as(checks.get("theorem4-unlimited").measured()).isFalse();
        assertThat(checks.get("condition1").pass()).isTrue(); // safety never depends on the estimate
    }

    @Test
    void anEstimatorThatLowersWithoutTheNumaccGuardFailsTheorem6() {
        Map<String, Check> checks = runWithUnlimited(
                new Contender("unguarded", BrokenEstimators.Unguarded::new, true));
        assertThat(checks.get("theorem6-unlimited").pass()).as(checks.get("theorem6-unlimited").measured()).isFalse();
        assertThat(checks.get("condition1").pass()).isTrue();
    }

    @Test
    void sameSeedSameNumbers() {
        AdaptiveConfig tiny = AdaptiveConfig.defaults().withLength(0.05);
        RunResult a = Scenarios.steps(tiny).run(Contender.unlimited(), tiny);
        RunResult b = Scenarios.steps(tiny).run(Contender.unlimited(), tiny);
        assertThat(a.series().samples()).isEqualTo(b.series().samples());
        assertThat(a.lost()).isEqualTo(b.lost());
    }

    private static Map<String, Check> runWithUnlimited(Contender broken) {
        List<Contender> contenders = List.of(broken, Contender.limited(SHORT.s(), SHORT.h(), SHORT.p()));
        return AdaptiveExperiment.run(SHORT, contenders).checks().stream()
                .collect(Collectors.toMap(Check::id, Function.identity()));
    }
}
