package dev.onceproof.conformance.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.tlc.CounterexampleTable;
import dev.onceproof.conformance.tlc.TlcJobs;
import dev.onceproof.conformance.tlc.TlcJvm;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * How `mvn verify` model-checks everything: every ci model of specs/manifest.json runs through TLC
 * and must give the manifest's outcome (pass, or the property a mutant violates), distinct-state
 * count and depth. Deep models are left to ./onceproof verify --mode deep.
 */
class ManifestCiModelsTest {

    @TestFactory
    Stream<DynamicTest> everyCiModelGivesWhatTheManifestSays() {
        Repo repo = Repo.locate();
        // -Donceproof.family=F checks one family's ci models, as ./onceproof verify --family F --models-only does.
        String family = System.getProperty("onceproof.family", "");
        List<ModelEntry> ci = repo.manifest().models().stream().filter(m -> m.mode() == ModelEntry.Mode.CI)
                .filter(m -> family.isEmpty() || m.family().equals(family)).toList();
        assertThat(ci).as("ci models of family \"" + family + "\"").isNotEmpty();
        TlcRunner runner = new TlcRunner(TlcJvm.standard().withSmallModels(ModelExpectation.smallModelCfgs(repo, ci)));
        // TLC runs side by side (one worker each, so the counts are unchanged), longest first so that
        // no long model starts last; each test, in manifest order, waits for its own.
        ExecutorService pool = Executors.newFixedThreadPool(TlcJobs.defaultJobs());
        List<Future<TlcResult>> results = new ArrayList<>(Collections.nCopies(ci.size(), null));
        ToDoubleFunction<ModelEntry> seconds = ModelExpectation.expectedSeconds(repo, repo.manifest());
        IntStream.range(0, ci.size()).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> seconds.applyAsDouble(ci.get(i))).reversed())
                .forEach(i -> results.set(i, pool.submit(
                        () -> runner.run(ModelExpectation.request(repo, ci.get(i), Duration.ofMinutes(10))))));
        pool.shutdown();
        return IntStream.range(0, ci.size()).mapToObj(i -> DynamicTest.dynamicTest(ci.get(i).name(), () -> {
            ModelEntry m = ci.get(i);
            TlcResult r = results.get(i).get();
            // As verify prints it, so the two can be compared model by model.
            System.out.printf(java.util.Locale.ROOT, "%s: %s, %d distinct states, %.1fs%n", m.name(), r.summary(),
                    r.distinctStates(), r.wallTime().toMillis() / 1000.0);
            List<String> problems = ModelExpectation.problems(m, r);
            assertThat(problems).as(m.name() + " (" + m.module() + ", " + m.cfg() + ")\n"
                    + (r.counterexample().isEmpty() ? "" : CounterexampleTable.render(r))).isEmpty();
        }));
    }
}
