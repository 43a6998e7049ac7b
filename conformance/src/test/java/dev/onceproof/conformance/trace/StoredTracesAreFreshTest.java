package dev.onceproof.conformance.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.TlcJobs;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * traces/ holds exactly what the specs generate today, byte for byte, so `mvn verify` fails when a
 * spec change leaves the stored traces stale (fix: ./onceproof traces generate). This is the
 * thorough check (every trace made again, as ./onceproof traces check does), not the inputs-hash
 * shortcut of ./onceproof verify: CI also shows that generation is deterministic on its machine.
 */
class StoredTracesAreFreshTest {

    @TestFactory
    Stream<DynamicTest> storedTracesMatchAFreshGeneration() {
        Repo repo = Repo.locate();
        Manifest m = repo.manifest();
        TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(10));
        // Every family's traces go into one pool of TLC runs side by side, so no family waits for the
        // slowest trace of the one before; each test waits for its own family's.
        ExecutorService pool = Executors.newFixedThreadPool(TlcJobs.defaultJobs());
        List<StalenessCheck.Plan> plans = new ArrayList<>();
        List<List<Future<GeneratedTrace>>> made = new ArrayList<>();
        for (String f : m.families()) {
            StalenessCheck.Plan plan = StalenessCheck.plan(repo, m, f, g.inputs(), StalenessCheck.Mode.REGENERATE_ALL);
            plans.add(plan);
            made.add(plan.regenerate().stream().map(x -> pool.submit(() -> g.generate(x.entry(), x.seed()))).toList());
        }
        pool.shutdown();
        return java.util.stream.IntStream.range(0, plans.size()).mapToObj(i -> DynamicTest.dynamicTest(
                "traces/" + plans.get(i).family(), () -> {
                    List<GeneratedTrace> traces = new ArrayList<>();
                    for (Future<GeneratedTrace> t : made.get(i)) {
                        traces.add(t.get());
                    }
                    StalenessCheck.Report r = StalenessCheck.compare(repo, plans.get(i), traces);
                    assertThat(r.problems()).as("stale, missing or extra traces of " + plans.get(i).family()).isEmpty();
                }));
    }
}
