package dev.onceproof.conformance.tlc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Runs the real TLC 2.18 jar on the tiny specs in src/test/resources/tla/. */
class TlcRunnerTest {

    private final TlcRunner runner = new TlcRunner();

    private TlcResult check(String module, String cfg, boolean deadlock) {
        return runner.run(TlcRequest.modelCheck(TestSpecs.file(module), TestSpecs.file(cfg), TestSpecs.dir(),
                deadlock, Duration.ofMinutes(2)));
    }

    @Test
    void passingModelReportsCountsAndDepth() {
        TlcResult r = check("Counter.tla", "CounterPass.cfg", false);
        assertThat(r.outcome()).isEqualTo(Outcome.PASS);
        assertThat(r.verdict()).isEqualTo("pass");
        assertThat(r.distinctStates()).isEqualTo(45);
        assertThat(r.statesGenerated()).isGreaterThanOrEqualTo(45);
        assertThat(r.depth()).isEqualTo(6);
        assertThat(r.counterexample()).isEmpty();
    }

    @Test
    void deadlockIsReportedOnlyWhenTheModelAsksForIt() {
        TlcResult r = check("Counter.tla", "CounterPass.cfg", true);
        assertThat(r.outcome()).isEqualTo(Outcome.DEADLOCK);
        assertThat(r.verdict()).isEqualTo("deadlock");
        assertThat(r.counterexample()).isNotEmpty();
    }

    @Test
    void invariantViolationNamesTheInvariantAndGivesTheShortestBehaviour() {
        TlcResult r = check("Counter.tla", "CounterSmall.cfg", false);
        assertThat(r.outcome()).isEqualTo(Outcome.INVARIANT_VIOLATED);
        assertThat(r.verdict()).isEqualTo("Small");
        assertThat(r.counterexample()).extracting(TraceState::label).containsExactly("Initial predicate", "Inc", "Inc");
        assertThat(r.counterexample().get(2).variables().get("x"))
                .isEqualTo(new dev.onceproof.conformance.tla.TlaValue.Int(3));
        String table = CounterexampleTable.render(r);
        assertThat(table).contains("Invariant Small is violated after 2 steps")
                .contains("Inc(n=2)").contains("x         3");
        // flags and hist change at step 1 but flags stays put at step 2, so it is listed once after Init.
        assertThat(table.lines().filter(l -> l.contains("flags")).count()).isEqualTo(2);
    }

    @Test
    void actionPropertyViolationNamesTheProperty() {
        TlcResult r = check("Counter.tla", "CounterGrow.cfg", false);
        assertThat(r.outcome()).isEqualTo(Outcome.ACTION_PROPERTY_VIOLATED);
        assertThat(r.verdict()).isEqualTo("Grow");
        assertThat(r.counterexample()).last().extracting(TraceState::label).isEqualTo("Reset");
    }

    @Test
    void parseErrorCarriesSanysMessageAndLocation() {
        TlcResult r = check("Broken.tla", "Broken.cfg", false);
        assertThat(r.outcome()).isEqualTo(Outcome.PARSE_ERROR);
        assertThat(r.message()).contains("Parse Error");
        assertThat(r.location()).isEqualTo("line 5, col 1");
        assertThat(r.summary()).startsWith("parse error: ");
    }

    @Test
    void coverageListsEveryActionOfNext() {
        TlcResult r = runner.run(TlcRequest.modelCheck(TestSpecs.file("Counter.tla"), TestSpecs.file("CounterPass.cfg"),
                TestSpecs.dir(), false, Duration.ofMinutes(2)).withArgs(java.util.List.of("-coverage", "1")));
        assertThat(r.actions()).containsExactly("Inc", "Reset", "Never");
    }

    @Test
    void runPastItsTimeoutIsKilledAndReportedAsATimeout() {
        TlcResult r = runner.run(TlcRequest.modelCheck(TestSpecs.file("Unbounded.tla"), TestSpecs.file("Unbounded.cfg"),
                TestSpecs.dir(), false, Duration.ofSeconds(2)));
        // Unbounded never ends, so any timeout is reached; 2 s rather than 8 s saves the JVM 6 s.
        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.summary()).isEqualTo("timeout: TLC did not finish within 2 s");
        assertThat(r.wallTime()).isLessThan(Duration.ofSeconds(30));
    }
}
