package dev.onceproof.conformance.tlc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * TLC in our JVM (a class loader per run) gives what TLC in a JVM of its own gives, runs side by
 * side without mixing their outputs, and honours its timeout.
 */
class TlcInProcessTest {

    private final TlcRunner forked = new TlcRunner(TlcJvm.standard(), TlcRunner.Mode.FORK);
    private final TlcRunner inProcess = new TlcRunner(TlcJvm.standard(), TlcRunner.Mode.IN_PROCESS);

    private static TlcRequest counter(String module, String cfg) {
        return TlcRequest.modelCheck(TestSpecs.file(module), TestSpecs.file(cfg), TestSpecs.dir(), false,
                Duration.ofMinutes(2));
    }

    /** Everything a result says except the wall time. */
    private static List<Object> facts(TlcResult r) {
        return List.of(r.outcome(), String.valueOf(r.property()), String.valueOf(r.message()),
                String.valueOf(r.location()), r.distinctStates(), r.statesGenerated(), r.depth(), r.counterexample(),
                r.actions(), r.printed(), r.exitCode(), r.untakenActions());
    }

    private void sameBothWays(TlcRequest request, Outcome expected) {
        TlcResult f = forked.run(request);
        TlcResult i = inProcess.run(request);
        assertThat(f.outcome()).as(f.summary()).isEqualTo(expected);
        assertThat(facts(i)).isEqualTo(facts(f));
    }

    @Test
    void aPassingModelGivesTheSameResultInProcess() {
        sameBothWays(counter("Counter.tla", "CounterPass.cfg").withArgs(List.of("-coverage", "1")), Outcome.PASS);
    }

    @Test
    void aViolatedInvariantGivesTheSameCounterexampleInProcess() {
        sameBothWays(counter("Counter.tla", "CounterSmall.cfg"), Outcome.INVARIANT_VIOLATED);
    }

    /**
     * TLC draws its fingerprint polynomial at random per run, and the behaviour its liveness check
     * prints depends on it (two forked runs of this model printed different ones); with -fp fixed
     * both ways must print the same.
     */
    @Test
    void aLivenessViolationGivesTheSameBehaviourInProcess() {
        sameBothWays(counter("CounterLive.tla", "CounterLive.cfg").withArgs(List.of("-fp", "1")),
                Outcome.TEMPORAL_PROPERTY_VIOLATED);
    }

    @Test
    void aParseErrorGivesTheSameMessageInProcess() {
        sameBothWays(counter("Broken.tla", "Broken.cfg"), Outcome.PARSE_ERROR);
    }

    /** The cfg in another folder than the module, as trace generation has it (TLC in our JVM once missed it). */
    @Test
    void aCfgBesideAnotherFolderIsFoundInProcess(@org.junit.jupiter.api.io.TempDir Path tmp) throws java.io.IOException {
        Path cfg = java.nio.file.Files.copy(TestSpecs.file("CounterSmall.cfg"), tmp.resolve("Elsewhere.cfg"));
        sameBothWays(TlcRequest.modelCheck(TestSpecs.file("Counter.tla"), cfg, TestSpecs.dir(), false,
                Duration.ofMinutes(2)), Outcome.INVARIANT_VIOLATED);
    }

    @Test
    void aSimulationGivesTheSameResultInProcess() {
        sameBothWays(counter("Counter.tla", "CounterPass.cfg").withArgs(List.of("-simulate", "num=3", "-depth", "5",
                "-seed", "7")), Outcome.PASS);
    }

    /**
     * Two runs side by side, each many times: every result is the one the run gives alone, and each
     * run's output names only its own module (a shared System.out or ToolIO would mix them).
     */
    @Test
    void twoRunsSideBySideKeepTheirOutputsApart() {
        TlcRequest a = counter("Counter.tla", "CounterSmall.cfg");
        TlcRequest b = counter("CounterLive.tla", "CounterLive.cfg").withArgs(List.of("-fp", "1"));
        List<Object> aloneA = facts(inProcess.run(a));
        List<Object> aloneB = facts(inProcess.run(b));
        InProcessTlc tlc = new InProcessTlc(TlcJvm.tlatoolsJar());
        for (int round = 0; round < 3; round++) {
            CompletableFuture<TlcResult> fa = CompletableFuture.supplyAsync(() -> inProcess.run(a));
            CompletableFuture<TlcResult> fb = CompletableFuture.supplyAsync(() -> inProcess.run(b));
            CompletableFuture<InProcessTlc.Raw> ra = CompletableFuture.supplyAsync(() -> raw(tlc, a));
            CompletableFuture<InProcessTlc.Raw> rb = CompletableFuture.supplyAsync(() -> raw(tlc, b));
            assertThat(facts(fa.join())).isEqualTo(aloneA);
            assertThat(facts(fb.join())).isEqualTo(aloneB);
            assertThat(ra.join().lines()).anyMatch(l -> l.contains("Counter.tla"))
                    .noneMatch(l -> l.contains("CounterLive"));
            assertThat(rb.join().lines()).anyMatch(l -> l.contains("CounterLive.tla"));
            assertThat(rb.join().lines().stream().filter(l -> l.startsWith("@!@!@STARTMSG 2199:")).count()).isEqualTo(1);
        }
    }

    private static InProcessTlc.Raw raw(InProcessTlc tlc, TlcRequest r) {
        try {
            Path scratch = java.nio.file.Files.createTempDirectory("onceproof-tlc-test");
            try {
                return tlc.run(r, TlcRunner.tlcArgs(r, scratch.resolve("meta"), null, true), scratch);
            } finally {
                TlcRunner.deleteQuietly(scratch);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aRunPastItsTimeoutInProcessEndsAndReportsWhatItReached() {
        TlcResult r = inProcess.run(TlcRequest.modelCheck(TestSpecs.file("Unbounded.tla"), TestSpecs.file("Unbounded.cfg"),
                TestSpecs.dir(), false, Duration.ofSeconds(3)));
        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.summary()).isEqualTo("timeout: TLC did not finish within 3 s");
        // Stopped as TLC's own stopAfter stops it, TLC prints how far it got.
        assertThat(r.distinctStates()).isGreaterThan(0);
        assertThat(r.depth()).isGreaterThan(0);
        assertThat(r.wallTime()).isLessThan(Duration.ofSeconds(30));
        // And the next run in the same JVM is unaffected.
        assertThat(inProcess.run(counter("Counter.tla", "CounterPass.cfg")).distinctStates()).isEqualTo(45);
    }
}
