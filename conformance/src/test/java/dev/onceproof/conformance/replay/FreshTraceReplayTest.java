package dev.onceproof.conformance.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.trace.TraceGenerator;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Behaviours the stored traces do not hold: each simulation entry of the manifest is run with a new
 * seed on every test run and replayed. The seed base is printed (and can be pinned with
 * -Donceproof.seedBase=N) so a failure reproduces with ./onceproof verify --seed-base N.
 */
class FreshTraceReplayTest {

    @TestFactory
    Stream<DynamicTest> freshSimulationsReplayOnTheCore() {
        Repo repo = Repo.locate();
        long base = Long.getLong("onceproof.seedBase", System.currentTimeMillis());
        System.out.println("FreshTraceReplayTest: seed base " + base);
        TraceGenerator generator = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(10));
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        List<TraceEntry> sims = repo.manifest().traces().stream()
                .filter(t -> t.kind() == TraceEntry.Kind.SIMULATE).toList();
        return sims.stream().map(e -> DynamicTest.dynamicTest(e.name() + " with a new seed", () -> {
            List<ReplayResult> results = FreshReplay.run(List.of(e), generator, replayer, base, 1, FreshReplay.tempDir());
            assertThat(results).hasSize(1);
            for (ReplayResult r : results) {
                assertThat(r.passed()).as("seed base " + base + ": " + r.report()).isTrue();
            }
        }));
    }
}
