package dev.onceproof.conformance.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.tlc.Outcome;
import dev.onceproof.conformance.tlc.TestSpecs;
import dev.onceproof.conformance.tlc.TlcRequest;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A manifest model with {@code "simulate"} (issue 20 item 4) runs as TLC's seeded {@code -simulate}
 * and is held to what it found as an exhaustive model is to its counts: the states it checked when it
 * passed, the length of its violating behaviour when it did not. Runs the real TLC 2.18 jar on the
 * tiny Counter spec (src/test/resources/tla/).
 */
class SimulatedModelTest {

    private final TlcRunner runner = new TlcRunner();
    private static final ModelEntry.Simulate SIM = new ModelEntry.Simulate(40, 8, 3);

    private TlcResult simulate(String cfg) {
        return runner.run(TlcRequest.modelCheck(TestSpecs.file("Counter.tla"), TestSpecs.file(cfg), TestSpecs.dir(),
                false, Duration.ofMinutes(2)).withArgs(SIM.tlcArgs()));
    }

    private static ModelEntry entry(String expect, long states, int depth) {
        return new ModelEntry("tiny-sim", "tiny", "tiny/Counter.tla", "tiny/C.cfg", ModelEntry.Mode.DEEP, expect,
                states, depth, "a seeded simulation", false, null, SIM);
    }

    @Test
    void aPassingSimulationIsHeldToTheStatesItChecked() {
        TlcResult first = simulate("CounterPass.cfg");
        TlcResult again = simulate("CounterPass.cfg");
        assertThat(first.outcome()).isEqualTo(Outcome.PASS);
        // 40 behaviours of up to 8 steps from one initial state: more states than behaviours.
        assertThat(first.statesGenerated()).isGreaterThan(40);
        // One worker and a seed: the same behaviours, so the same count, run after run.
        assertThat(again.statesGenerated()).isEqualTo(first.statesGenerated());
        assertThat(ModelExpectation.problems(entry("pass", first.statesGenerated(), 8), first)).isEmpty();
        assertThat(ModelExpectation.problems(entry("pass", first.statesGenerated() + 1, 8), first))
                .singleElement().asString().contains("the simulation checks " + (first.statesGenerated() + 1)
                        + " states, TLC checked " + first.statesGenerated());
    }

    @Test
    void aViolatingSimulationIsHeldToTheLengthOfItsBehaviour() {
        TlcResult r = simulate("CounterSmall.cfg");
        assertThat(r.verdict()).isEqualTo("Small");
        int steps = r.counterexample().size() - 1;
        assertThat(steps).isPositive();
        assertThat(simulate("CounterSmall.cfg").counterexample()).hasSize(steps + 1);
        assertThat(ModelExpectation.problems(entry("Small", 0, steps), r)).isEmpty();
        assertThat(ModelExpectation.problems(entry("Small", 0, steps + 1), r))
                .singleElement().asString().contains("violating behaviour has " + (steps + 1) + " steps, TLC's has "
                        + steps);
        // The outcome is checked first: a simulation that misses the mutant's violation is a failure.
        assertThat(ModelExpectation.problems(entry("Small", 0, steps), simulate("CounterPass.cfg")))
                .singleElement().asString().contains("the mutant is not refuted");
    }
}
