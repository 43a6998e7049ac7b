package dev.onceproof.conformance.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * traces/ holds exactly what the specs generate today, byte for byte, so `mvn verify` fails when a
 * spec change leaves the stored traces stale (fix: ./onceproof traces generate).
 */
class StoredTracesAreFreshTest {

    @TestFactory
    Stream<DynamicTest> storedTracesMatchAFreshGeneration() {
        Repo repo = Repo.locate();
        Manifest m = repo.manifest();
        TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(10));
        return m.families().stream().map(f -> DynamicTest.dynamicTest("traces/" + f, () -> {
            StalenessCheck.Report r = StalenessCheck.check(repo, m, f, g);
            assertThat(r.problems()).as("stale, missing or extra traces of " + f).isEmpty();
        }));
    }
}
