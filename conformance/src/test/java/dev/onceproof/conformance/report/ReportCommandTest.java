package dev.onceproof.conformance.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.cli.CliRun;
import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.report.ProofMap.EvidenceResult;
import dev.onceproof.conformance.report.ProofMap.FamilyResult;
import dev.onceproof.conformance.report.ProofMap.Flag;
import dev.onceproof.conformance.report.ProofMap.StatementResult;
import dev.onceproof.conformance.report.ProofMap.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./onceproof report} on the repository's statements and a results file written here in the
 * verify command's schema (onceproof-verify/1): each statement gets the outcome of its evidence, and
 * the flags come out where the results put them (a refuted mutant that no longer fails, a model whose
 * inputs changed since the run, an identity claim, a statement without evidence).
 */
class ReportCommandTest {

    private static final Repo REPO = Repo.locate();
    private static Manifest manifest;
    private static CurrentInputs inputs;

    @TempDir
    Path tmp;

    @BeforeAll
    static void load() {
        manifest = REPO.manifest();
        inputs = new CurrentInputs(REPO);
    }

    private static Map<String, Object> model(String name, String status, String outcome, String hash, String cex) {
        ModelEntry m = manifest.models().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("name", name);
        e.put("family", m.family());
        e.put("mode", "ci");
        e.put("expect", m.expect());
        e.put("outcome", outcome);
        e.put("status", status);
        e.put("distinctStates", m.distinctStates());
        e.put("depth", m.depth());
        e.put("seconds", 1.5);
        e.put("inputsHash", hash != null ? hash : inputs.model(m));
        e.put("counterexample", cex);
        e.put("problems", List.of());
        return e;
    }

    /** The fixture: what a verify run of a few scmp entries and two adaptive claims would write. */
    private Path results() throws IOException {
        List<Object> models = new ArrayList<>();
        models.add(model("scmp-nonresilient", "ok", "pass", null, null));
        models.add(model("scmp-mutant-gc-no-raise", "ok", "NoDuplicateAccepted", null, "step 6 Receive <accepted twice>"));
        models.add(model("scmp-resilient", "ok", "pass", "sha256:0000", null));
        models.add(model("scmp-mutant-recover-keeps-upper", "fail", "pass", null, null));
        models.add(model("scmp-mutant-entry-equality-only", "fail", "pass", null, null));
        var trace = manifest.trace("scmp-gc-duplicate").orElseThrow();
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("file", "traces/scmp/scmp-gc-duplicate.jsonl");
        t.put("family", "scmp");
        t.put("kind", "stored");
        t.put("status", "ok");
        t.put("steps", 7);
        t.put("seconds", 0.2);
        t.put("inputsHash", inputs.trace(trace, null));
        List<Object> claims = List.of(
                Map.of("family", "adaptive", "id", "condition1", "verdict", "PASS", "basis", "simulation",
                        "canFail", true, "status", "ok"),
                Map.of("family", "adaptive", "id", "powers-of-two", "verdict", "PASS", "basis", "identity",
                        "canFail", false, "status", "ok"));
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schema", "onceproof-verify/1");
        root.put("commit", "abc1234");
        root.put("startedAt", "2026-11-27T00:00:00Z");
        root.put("seconds", 12.0);
        root.put("command", "verify --family scmp");
        root.put("shard", null);
        root.put("ok", false);
        root.put("models", models);
        root.put("traces", List.of(t));
        root.put("claims", claims);
        root.put("failures", List.of());
        Path file = tmp.resolve("last-results.json");
        new ObjectMapper().writeValue(file.toFile(), root);
        return file;
    }

    private static StatementResult row(List<FamilyResult> families, String family, String id) {
        return families.stream().filter(f -> f.statements().family().equals(family)).findFirst().orElseThrow()
                .rows().stream().filter(r -> r.statement().id().equals(id)).findFirst().orElseThrow();
    }

    private static EvidenceResult ev(StatementResult r, String ref) {
        return r.evidence().stream().filter(e -> e.evidence().ref().equals(ref)).findFirst().orElseThrow();
    }

    private List<FamilyResult> evaluate() throws IOException {
        ProofMap map = new ProofMap(REPO, manifest, LastResults.read(results()), inputs);
        return FamilyStatements.families(REPO).stream().map(f -> map.family(FamilyStatements.load(REPO, f))).toList();
    }

    @Test
    void evidenceThatRanAndCanFailLeavesTheStatementUnflagged() throws IOException {
        StatementResult r = row(evaluate(), "scmp", "gc-raises-upper");
        assertThat(ev(r, "scmp-mutant-gc-no-raise").status()).isEqualTo(Status.OK);
        assertThat(ev(r, "scmp-mutant-gc-no-raise").distinctStates()).isEqualTo(79);
        assertThat(ev(r, "scmp-gc-duplicate").status()).isEqualTo(Status.OK);
        assertThat(r.flags()).isEmpty();
    }

    @Test
    void aMutantThatNoLongerFailsAndAFailedControlAreFailures() throws IOException {
        List<FamilyResult> f = evaluate();
        assertThat(row(f, "scmp", "recovery-upper-from-latest").flags()).contains(Flag.FAILED);
        EvidenceResult withControl = ev(row(f, "scmp", "no-out-of-order"), "scmp-nonresilient");
        assertThat(withControl.control()).isEqualTo(Status.FAIL);
        assertThat(withControl.status()).isEqualTo(Status.FAIL);
        assertThat(withControl.detail()).contains("control scmp-mutant-entry-equality-only fail");
    }

    @Test
    void aModelWhoseInputsChangedSinceTheRunIsStale() throws IOException {
        StatementResult r = row(evaluate(), "scmp", "promise-after-crash");
        assertThat(ev(r, "scmp-resilient").status()).isEqualTo(Status.STALE);
        assertThat(r.flags()).contains(Flag.STALE, Flag.NOT_RUN);
    }

    @Test
    void restatedGuardsIdentityClaimsAndMissingEvidenceAreFlagged() throws IOException {
        List<FamilyResult> f = evaluate();
        StatementResult pow = row(f, "adaptive", "estimates-powers-of-two");
        assertThat(ev(pow, "powers-of-two").cannotFail()).contains("claim that is an identity");
        assertThat(pow.flags()).contains(Flag.CANNOT_FAIL);
        assertThat(ev(row(f, "adaptive", "theorem2-condition1"), "condition1").cannotFail()).isEmpty();
        assertThat(ev(row(f, "adaptive", "theorem2-condition1"), "adaptive-standard-form-deep").status())
                .isEqualTo(Status.NOT_RUN_DEEP);
        assertThat(row(f, "rpc", "performance-vs-udp-tcp").flags()).containsExactly(Flag.UNCOVERED);
    }

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void theCommandWritesOneSelfContainedPageAndTheMarkdownAndOnlyStrictFails() throws IOException {
        Path results = results();
        Path out = tmp.resolve("report");
        CliRun r = run("report", "--results", results.toString(), "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("results: " + results).contains("scmp                 14")
                .contains("uncovered: no evidence: rpc/performance-vs-udp-tcp");
        String html = Files.readString(out.resolve("index.html"));
        assertThat(html).contains("data:image/png;base64,").contains("<style>")
                .contains("<details><summary>counterexample or mismatch</summary><pre>step 6 Receive &lt;accepted twice&gt;</pre>")
                .contains("href=\"" + out.relativize(REPO.root()) + "/traces/scmp/scmp-gc-duplicate.jsonl\"")
                .doesNotContainPattern("(src|href)=\"(https?:)?//").doesNotContain("<script").doesNotContain("<link");
        assertThat(Files.readString(out.resolve("proof-map.md"))).contains("## Summary")
                .contains("### `gc-raises-upper`: ").contains("| scmp | 14 |");

        assertThat(run("report", "--results", results.toString(), "--out", out.toString(), "--strict").exit()).isOne();
    }

    @Test
    void aBrokenResultsFileIsOneLineNamingIt() throws IOException {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"schema\": \"something-else\"}");
        CliRun r = run("report", "--results", bad.toString(), "--out", tmp.resolve("o").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("onceproof report: " + bad
                + ": field \"schema\" is \"something-else\", this report reads onceproof-verify/1");
        CliRun missing = run("report", "--results", tmp.resolve("nope.json").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("nope.json: no such results file");
    }
}
