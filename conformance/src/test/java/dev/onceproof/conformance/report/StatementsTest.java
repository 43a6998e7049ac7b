package dev.onceproof.conformance.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.conformance.manifest.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every family's specs/&lt;family&gt;/statements.json loads and every ref in it resolves: the models and
 * mutants are in the manifest with the outcome the kind implies, the traces are stored, the test
 * classes and methods exist, the claim ids are in the bench's committed results.
 */
class StatementsTest {

    private static final Repo REPO = Repo.locate();

    @TempDir
    Path tmp;

    @Test
    void everyFamilyHasAStatementsFile() {
        assertThat(FamilyStatements.families(REPO)).containsExactlyElementsOf(FamilyStatements.FAMILY_ORDER);
    }

    @Test
    void everyRefOfEveryStatementsFileResolves() {
        RefCheck check = new RefCheck(REPO, REPO.manifest());
        List<String> problems = new ArrayList<>();
        for (String family : FamilyStatements.families(REPO)) {
            problems.addAll(check.problems(FamilyStatements.load(REPO, family)));
        }
        assertThat(problems).isEmpty();
    }

    /** The check can fail: one broken ref of each kind, each reported with file, statement and evidence. */
    @Test
    void brokenRefsAreReported() throws IOException {
        Path file = tmp.resolve("statements.json");
        Files.writeString(file, """
                { "family": "scmp", "paper": "p", "statements": [ { "id": "s", "statement": "t", "location": "sec. 2",
                  "evidence": [
                    { "kind": "model", "ref": "scmp-no-such-model" },
                    { "kind": "model", "ref": "scmp-mutant-gc-no-raise" },
                    { "kind": "mutant", "ref": "scmp-mutant-gc-no-raise", "property": "UpperBelowHorizon" },
                    { "kind": "model", "ref": "scmp-resilient", "property": "PromiseAfterCrash", "control": "scmp-mutant-gc-no-raise" },
                    { "kind": "trace", "ref": "scmp-no-such-trace" },
                    { "kind": "trace", "ref": "traces/scmp/nothing.jsonl" },
                    { "kind": "test", "ref": "dev.onceproof.scmp.NoSuchTest" },
                    { "kind": "test", "ref": "dev.onceproof.scmp.MutationSeamTest#noSuchMethod" },
                    { "kind": "claim", "ref": "no-such-claim" },
                    { "kind": "model", "ref": "rpc-safety" },
                    { "kind": "model", "ref": "scmp-resilient", "property": "NoDuplicateAccepted", "control": "scmp-mutant-recover-keeps-upper" }
                  ] } ] }
                """);
        List<String> problems = new RefCheck(REPO, REPO.manifest()).problems(FamilyStatements.read(file));
        assertThat(problems).hasSize(10);
        assertThat(String.join("\n", problems))
                .contains("evidence 1 (model scmp-no-such-model): no model of that name")
                .contains("evidence 2 (model scmp-mutant-gc-no-raise): the manifest expects NoDuplicateAccepted, not pass")
                .contains("evidence 3 (mutant scmp-mutant-gc-no-raise): names property UpperBelowHorizon")
                .contains("evidence 4 (model scmp-resilient): control scmp-mutant-gc-no-raise violates NoDuplicateAccepted, not PromiseAfterCrash")
                .contains("evidence 5 (trace scmp-no-such-trace): neither a trace entry")
                .contains("evidence 6 (trace traces/scmp/nothing.jsonl): no such file")
                .contains("evidence 7 (test dev.onceproof.scmp.NoSuchTest): no test class")
                .contains("evidence 8 (test dev.onceproof.scmp.MutationSeamTest#noSuchMethod): no method noSuchMethod")
                .contains("evidence 9 (claim no-such-claim): the family has no bench/results/scmp/claims.json or summary.txt")
                .contains("evidence 10 (model rpc-safety): the manifest puts it in family rpc");
    }

    /** A simulation's pass counts only against a control drawn the same way (issue 20 item 4). */
    @Test
    void aSimulatedModelsControlMustBeTheSameSimulation() throws IOException {
        Path file = tmp.resolve("statements.json");
        Files.writeString(file, """
                { "family": "exactlyonce", "paper": "p", "statements": [ { "id": "s", "statement": "t", "location": "L223",
                  "evidence": [
                    { "kind": "model", "ref": "exactlyonce-s5msg-three-sim", "property": "NoDuplicateDelivery",
                      "control": "exactlyonce-mutant-s5msg-previous-only" },
                    { "kind": "model", "ref": "exactlyonce-s5msg-three-sim", "property": "NoDuplicateDelivery",
                      "control": "exactlyonce-mutant-s5msg-previous-only-three-sim" }
                  ] } ] }
                """);
        List<String> problems = new RefCheck(REPO, REPO.manifest()).problems(FamilyStatements.read(file));
        assertThat(problems).singleElement().asString()
                .contains("evidence 1 (model exactlyonce-s5msg-three-sim): control exactlyonce-mutant-s5msg-previous-only"
                        + " must be a simulation with the same settings")
                .contains("is exhaustive");
    }

    @Test
    void aMalformedFileIsOneLineNamingTheFileAndThePlace() throws IOException {
        Path file = tmp.resolve("statements.json");
        Files.writeString(file, """
                { "family": "scmp", "paper": "p", "statements": [ { "id": "s", "statement": "t", "location": "l",
                  "evidence": [ { "kind": "modle", "ref": "x" } ] } ] }
                """);
        assertThatThrownBy(() -> FamilyStatements.read(file)).isInstanceOf(StatementsException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("unknown evidence kind \"modle\"")
                .hasMessageContaining("statements[0].evidence[0].kind");
        Files.writeString(file, """
                { "family": "scmp", "paper": "p", "statements": [ { "id": "s", "statement": "t", "location": "l" },
                  { "id": "s", "statement": "u", "location": "l" } ] }
                """);
        assertThatThrownBy(() -> FamilyStatements.read(file)).hasMessageContaining("statement s: the id occurs twice");
        Files.writeString(file, """
                { "family": "scmp", "paper": "p", "statements": [ { "id": "s", "statement": "t", "location": "l",
                  "evidence": [ { "kind": "trace", "ref": "x", "control": "y" } ] } ] }
                """);
        assertThatThrownBy(() -> FamilyStatements.read(file)).hasMessageContaining("\"control\" belongs to a model or test");
    }

    @Test
    void claimsComeFromClaimsJsonWhenItExistsElseFromSummaryTxt() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("bench/results/fam"));
        Files.createDirectories(tmp.resolve("specs"));
        Files.writeString(tmp.resolve("specs/manifest.json"), "{\"models\": [], \"traces\": []}");
        Repo repo = new Repo(tmp);
        Files.writeString(dir.resolve("summary.txt"), """
                point: D=30
                PASS  fig4-12-slots              Fig. 4, L343: about 12 slots
                      smallest q with p3/p0 = 1: 12
                GAP   eq8-causal                     Eqs. 4 and 8
                PASS  eq7-fifo   one point
                PASS  eq7-fifo   another point
                """);
        Claims fromSummary = Claims.load(repo, "fam");
        assertThat(fromSummary.claims().keySet()).containsExactly("fig4-12-slots", "eq8-causal", "eq7-fifo");
        assertThat(fromSummary.claims().get("eq8-causal").verdict()).isEqualTo("GAP");
        assertThat(fromSummary.claims().get("fig4-12-slots").basis()).isNull();

        Files.writeString(dir.resolve("claims.json"), """
                { "claims": [ { "id": "fig4-12-slots", "verdict": "PASS", "basis": "closed-form" },
                              { "id": "p1-p2-equal-p0", "verdict": "PASS", "basis": "identity" } ] }
                """);
        Claims fromJson = Claims.load(repo, "fam");
        assertThat(fromJson.source().getFileName().toString()).isEqualTo("claims.json");
        assertThat(fromJson.claims().keySet()).containsExactly("fig4-12-slots", "p1-p2-equal-p0");
        assertThat(fromJson.claims().get("p1-p2-equal-p0").basis()).isEqualTo("identity");
        assertThat(fromJson.fresh()).isNull();

        // The bench's own staleness rule: the recorded hash of the inputs it lists, against them now.
        Path src = Files.createDirectories(tmp.resolve("bench/src"));
        Files.writeString(src.resolve("Sim.java"), "class Sim {}");
        String hash = dev.onceproof.provenance.InputsHash.of(tmp, List.of("bench/src"));
        Files.writeString(dir.resolve("claims.json"), """
                { "schema": "onceproof-claims/1", "inputs": ["bench/src"], "inputsHash": "%s",
                  "claims": [ { "id": "fig4-12-slots", "verdict": "PASS", "basis": "closed-form", "canFail": true } ] }
                """.formatted(hash));
        assertThat(Claims.load(repo, "fam").fresh()).isTrue();
        Files.writeString(src.resolve("Sim.java"), "class Sim { int changed; }");
        assertThat(Claims.load(repo, "fam").fresh()).isFalse();
    }

    @Test
    void theKindDecidesWhetherEvidenceCanFailOnItsOwn() {
        assertThat(new Evidence(Evidence.Kind.MUTANT, "m", null, null, null, null).whyCannotFail()).isEmpty();
        assertThat(new Evidence(Evidence.Kind.EXPECTED_COUNTEREXAMPLE, "m", null, null, null, null).whyCannotFail()).isEmpty();
        assertThat(new Evidence(Evidence.Kind.MODEL, "m", "P", null, null, null).whyCannotFail())
                .contains("passing model without a control");
        assertThat(new Evidence(Evidence.Kind.MODEL, "m", "P", "c", null, null).whyCannotFail()).isEmpty();
        assertThat(new Evidence(Evidence.Kind.MODEL, "m", "P", "c", true, null).whyCannotFail()).contains("restates a guard");
        assertThat(new Evidence(Evidence.Kind.CLAIM, "c", null, null, null, null).whyCannotFail("identity"))
                .contains("claim that is an identity");
        assertThat(new Evidence(Evidence.Kind.CLAIM, "c", null, null, null, null).whyCannotFail("simulation")).isEmpty();
        assertThat(new Evidence(Evidence.Kind.CLAIM, "c", null, null, null, null).whyCannotFail(null))
                .contains("claim whose basis is unknown");
    }
}
