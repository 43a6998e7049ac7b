package dev.onceproof.conformance.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.tlc.CounterexampleTable;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.time.Duration;
import java.util.List;
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
        TlcRunner runner = new TlcRunner();
        return repo.manifest().models().stream().filter(m -> m.mode() == ModelEntry.Mode.CI)
                .map(m -> DynamicTest.dynamicTest(m.name(), () -> {
                    TlcResult r = runner.run(ModelExpectation.request(repo, m, Duration.ofMinutes(10)));
                    List<String> problems = ModelExpectation.problems(m, r);
                    assertThat(problems).as(m.name() + " (" + m.module() + ", " + m.cfg() + ")\n"
                            + (r.counterexample().isEmpty() ? "" : CounterexampleTable.render(r))).isEmpty();
                }));
    }
}
