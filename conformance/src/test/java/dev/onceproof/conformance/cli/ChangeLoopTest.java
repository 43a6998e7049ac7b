package dev.onceproof.conformance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.manifest.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, item 6, the engineer's change loop: an edit to specs/scmp/SCMP.tla (the upper check of
 * Receive, {@code <=} made {@code <}) followed by {@code ./onceproof verify --family scmp}. The
 * verdict and the counterexample must come before any trace work, the failing family's trace work
 * is skipped, and with {@code --keep-going} every trace run stops at its budget and is named.
 *
 * <p>On a copy of the real scmp specs and traces, with a manifest cut to two models (the edit breaks
 * the first; the second is a mutant), so it runs in seconds. Not timed: the budget is 1 ms, which no
 * TLC run can meet, so the assertion is on the names reported cut short, not on seconds.
 */
class ChangeLoopTest {

    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    /** specs/scmp and traces/scmp of this repository, with the manifest's scmp traces and two models. */
    private Repo scmpCopy() throws IOException {
        Repo real = Repo.locate();
        copy(real.specs().resolve("scmp"), dir.resolve("specs/scmp"));
        copy(real.traces().resolve("scmp"), dir.resolve("traces/scmp"));
        ObjectMapper json = new ObjectMapper();
        JsonNode manifest = json.readTree(real.manifestFile().toFile());
        var out = json.createObjectNode();
        var models = out.putArray("models");
        for (JsonNode m : manifest.get("models")) {
            if (Set.of("scmp-classes", "scmp-mutant-gc-no-raise").contains(m.get("name").asText())) {
                models.add(m);
            }
        }
        var traces = out.putArray("traces");
        manifest.get("traces").forEach(t -> {
            if (t.get("family").asText().equals("scmp")) {
                traces.add(t);
            }
        });
        json.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("specs/manifest.json").toFile(), out);
        return new Repo(dir);
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

    private static void breakUpperCheck(Repo repo) throws IOException {
        Path spec = repo.specs().resolve("scmp/SCMP.tla");
        String text = Files.readString(spec);
        String check = "ELSE IF m.ts <= upper[ClassOf[m.conn]] THEN \"duplicate\"";
        assertThat(text).as("the upper check of Receive in SCMP.tla").contains(check);
        Files.writeString(spec, text.replace(check, check.replace("<=", "<")));
    }

    @Test
    void theVerdictComesFirstAndAFailingFamilysTraceWorkIsSkipped() throws IOException {
        Repo repo = scmpCopy();
        breakUpperCheck(repo);
        CliRun r = run("verify", "--family", "scmp", "--repo", repo.root().toString(), "--jobs", "2");
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
        String out = r.out();
        int verdict = out.indexOf("Models: FAILED: ");
        assertThat(verdict).as(out).isPositive();
        assertThat(out.indexOf("scmp-classes: manifest says pass, TLC found NoDuplicateAccepted")).isBetween(0, verdict);
        assertThat(out.indexOf("Invariant NoDuplicateAccepted is violated")).as("the counterexample table")
                .isBetween(0, verdict);
        assertThat(out).contains("traces/scmp: skipped: scmp's models fail, so no trace can change the verdict")
                .doesNotContain("Trace work for").doesNotContain("cut short");
        assertThat(out.indexOf("traces/scmp: skipped")).isGreaterThan(verdict);
    }

    @Test
    void withKeepGoingEveryTraceRunStopsAtItsBudgetAndIsNamed() throws IOException {
        Repo repo = scmpCopy();
        breakUpperCheck(repo);
        CliRun r = run("verify", "--family", "scmp", "--repo", repo.root().toString(), "--jobs", "2", "--keep-going",
                "--trace-budget", "0.001", "--seed-base", "7");
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);
        String out = r.out();
        int verdict = out.indexOf("Models: FAILED: ");
        int traceWork = out.indexOf("Trace work for 1 families");
        assertThat(verdict).as(out).isPositive();
        assertThat(traceWork).as("trace work starts after the verdict").isGreaterThan(verdict);
        assertThat(out.indexOf("Invariant NoDuplicateAccepted is violated")).isBetween(0, verdict);

        // The edit changes an input of every scmp trace, so all 16 are regenerated, and 3 fresh ones
        // made; at a 1 ms budget each is cut short, named in the output and marked in the results.
        List<String> expected = new ArrayList<>();
        try (Stream<Path> stored = Files.list(repo.traces().resolve("scmp"))) {
            stored.map(p -> p.getFileName().toString()).sorted().forEach(expected::add);
        }
        assertThat(expected).hasSize(16).contains("scmp-gc-duplicate.jsonl");
        for (String f : expected) {
            assertThat(out).contains("cut short: " + f + " (");
        }
        JsonNode results = new ObjectMapper().readTree(repo.root().resolve("target/onceproof/last-results.json").toFile());
        Set<String> cut = new TreeSet<>();
        results.get("traces").forEach(t -> {
            if ("cut short".equals(t.path("reason").asText())) {
                assertThat(t.get("status").asText()).isEqualTo("error");
                cut.add(t.get("file").asText());
            }
        });
        Set<String> want = new TreeSet<>();
        expected.forEach(f -> want.add("traces/scmp/" + f));
        for (String sim : List.of("scmp-sim-nonresilient", "scmp-sim-resilient", "scmp-sim-monotonic")) {
            cut.stream().filter(f -> f.startsWith(sim + "-seed")).findFirst().ifPresent(want::add);
        }
        assertThat(cut).hasSize(19).isEqualTo(want);
        assertThat(out).contains("traces/scmp: FAILED to regenerate");
    }
}
