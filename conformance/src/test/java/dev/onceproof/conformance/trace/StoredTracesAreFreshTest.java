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
 * traces/ holds exactly what the specs generate today, so `mvn verify` fails when a spec change
 * leaves the stored traces stale (fix: ./onceproof traces generate). As in ./onceproof verify, a
 * stored trace whose header digest matches its bytes and whose input hash (modules, cfg, seed, TLC,
 * generator) equals today's is fresh without running TLC, and every other one is made again and
 * compared byte for byte. The hash argument rests on generation being deterministic, so CI also
 * shows that on its machine: one trace per TLC model module (the first in manifest order) is made
 * again and compared byte for byte whatever its hash says. ./onceproof traces check makes them all
 * (the thorough check, 120+ TLC runs, about 3 minutes on 2 cores).
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
            StalenessCheck.Plan byInputs = StalenessCheck.plan(repo, m, f, g.inputs(), StalenessCheck.Mode.BY_INPUTS);
            StalenessCheck.Plan plan = withDeterminismWitnesses(byInputs);
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

    /** Moves the first unchanged trace of every model module not already regenerated into the regeneration. */
    static StalenessCheck.Plan withDeterminismWitnesses(StalenessCheck.Plan plan) {
        List<StalenessCheck.Expected> regenerate = new ArrayList<>(plan.regenerate());
        List<StalenessCheck.Expected> unchanged = new ArrayList<>();
        java.util.Set<String> witnessed = new java.util.HashSet<>();
        plan.regenerate().forEach(x -> witnessed.add(x.entry().module()));
        for (StalenessCheck.Expected x : plan.unchanged()) {
            (witnessed.add(x.entry().module()) ? regenerate : unchanged).add(x);
        }
        return new StalenessCheck.Plan(plan.family(), regenerate, unchanged, plan.extras());
    }
}
