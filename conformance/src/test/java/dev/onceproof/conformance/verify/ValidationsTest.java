package dev.onceproof.conformance.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpFilterRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verify's trace validation phase fails on a rejected log and says why: a fresh run of the SCMP
 * filter broken through its UPPER_RAISED_AFTER_REMOVAL seam (the same seeded world verify runs, with
 * the seam) is a rejection in the printed lines, a failure carrying the rejection report, and a
 * JUnit failure whose text is that report; the same world with the real filter is accepted.
 */
class ValidationsTest {

    @TempDir
    Path dir;

    private static Validations.FreshRun filterRun(String reordering) {
        return new Validations.FreshRun() {
            @Override
            public String name(long seed) {
                return "fresh: ConcurrentScmpFilter " + reordering + ", seed 7";
            }

            @Override
            public List<Path> make(Path d, long seed) {
                // Seed 7: a world in which the seam's late raise of upper shows in a collection's line.
                return List.of(ScmpFilterRun.run(d.resolve("scmp.jsonl"), RecoveryScheme.RESILIENT, 7, 120, reordering));
            }
        };
    }

    @Test
    void aRejectedFreshRunFailsVerifyWithTheRejectionReport() throws Exception {
        Repo repo = Repo.locate();
        StringWriter printed = new StringWriter();
        Map<String, Validations.Plan> plans = Map.of("scmp", new Validations.Plan(List.of(),
                List.of(filterRun("NONE"), filterRun("UPPER_RAISED_AFTER_REMOVAL"))));
        Validations.Outcome o = new Validations(repo, new TlcRunner(), Duration.ofMinutes(5),
                new PrintWriter(printed, true), plans).run(List.of("scmp"), 7, 1);
        System.out.print(printed);

        assertThat(o.validations()).extracting(VerifyResults.Validation::status).containsExactly("ok", "rejected");
        VerifyResults.Validation broken = o.validations().get(1);
        assertThat(broken.report()).contains("no reachable state takes the next line")
                .contains("\"action\":\"CollectGarbage\"");
        assertThat(o.failures()).singleElement().asString().startsWith("validation " + broken.name() + ": rejected")
                .contains(broken.report().strip().lines().findFirst().orElseThrow());
        assertThat(printed.toString()).contains("REJECTED").contains("Validations: 1 of 2 accepted");

        VerifyResults r = new VerifyResults(VerifyResults.SCHEMA, null, "2026-11-27T00:00:00Z", 1, "verify", null, false,
                List.of(), List.of(), List.of(), o.failures(), List.of(), o.validations());
        String xml = Files.readString(JUnitReport.write(dir, r, false));
        assertThat(xml).contains("<testsuite name=\"onceproof.validations.scmp\" tests=\"2\" failures=\"1\"")
                .contains("<failure message=\"rejected: REJECTED: SCMP");
        Path json = dir.resolve("results.json");
        ResultsJson.write(json, r);
        assertThat(ResultsJson.read(json).validations()).isEqualTo(o.validations());
    }
}
