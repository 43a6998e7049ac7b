package dev.onceproof.conformance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.trace.TinyRepo;
import dev.onceproof.conformance.verify.ClaimsReaderTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** What verify writes for CI (JSON, JUnit XML), its claims policy and its input errors, on the tiny repo. */
class VerifyOutputsTest {

    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void aMisspelledFamilyIsAnErrorListingTheFamilies() {
        Repo repo = TinyRepo.copyTo(dir);
        CliRun r = run("verify", "--family", "tinny", "--repo", repo.root().toString());
        assertThat(r.exit()).isEqualTo(Main.INPUT_ERROR);
        assertThat(r.err()).isEqualTo("onceproof verify: --family tinny: no such family in specs/manifest.json;"
                + " the families are tiny" + System.lineSeparator());
        assertThat(r.out()).doesNotContain("OK");
    }

    @Test
    void replayOfAMissingFileIsOneLineNamingIt() {
        Repo repo = TinyRepo.copyTo(dir);
        CliRun r = run("replay", "--repo", repo.root().toString(), "traces/tiny/nope.jsonl");
        assertThat(r.exit()).isEqualTo(Main.INPUT_ERROR);
        assertThat(r.err()).isEqualTo("onceproof replay: traces/tiny/nope.jsonl: no such file" + System.lineSeparator());
        assertThat(r.out()).isEmpty();
    }

    @Test
    void junitAndJsonHoldEveryModelTraceAndClaimInTheShapeCiReads() throws Exception {
        Repo repo = ClaimsReaderTest.withClaims(dir);
        assertThat(run("traces", "generate", "--repo", repo.root().toString()).exit()).isZero();
        Path junit = dir.resolve("junit");
        Path json = dir.resolve("out/results.json");
        CliRun r = run("verify", "--repo", repo.root().toString(), "--junit", junit.toString(), "--json", json.toString(),
                "--seed-base", "5");
        // The tiny Counter spec has no replayer, so its traces fail replay; the FAIL claim fails too.
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(1);

        JsonNode res = new ObjectMapper().readTree(json.toFile());
        assertThat(Files.readString(repo.root().resolve("target/onceproof/last-results.json")))
                .isEqualTo(Files.readString(json));
        assertThat(res.get("schema").asText()).isEqualTo("onceproof-verify/1");
        assertThat(res.get("ok").asBoolean()).isFalse();
        assertThat(res.get("command").asText()).startsWith("verify --repo ");
        assertThat(res.get("shard").isNull()).isTrue();
        JsonNode pass = res.get("models").get(0);
        assertThat(pass.get("name").asText()).isEqualTo("tiny-pass");
        assertThat(pass.get("status").asText()).isEqualTo("ok");
        assertThat(pass.get("distinctStates").asLong()).isEqualTo(45);
        assertThat(pass.get("inputsHash").asText()).startsWith("sha256:");
        List<String> traceStatus = new ArrayList<>();
        res.get("traces").forEach(t -> traceStatus.add(t.get("kind").asText() + " " + t.get("file").asText() + " "
                + t.get("status").asText()));
        assertThat(traceStatus).contains("stored traces/tiny/tiny-two.jsonl fail", "stored traces/tiny/tiny-sim-seed1.jsonl fail")
                .anyMatch(s -> s.startsWith("fresh tiny-sim-seed") && s.endsWith(" fail"));
        assertThat(res.get("traces").get(0).get("mismatch").asText()).contains("no replayer for spec \"Counter\"");
        assertThat(res.get("claims")).hasSize(4);

        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(junit.resolve("TEST-onceproof.xml").toFile());
        Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("testsuites");
        NodeList suites = root.getElementsByTagName("testsuite");
        List<String> names = new ArrayList<>();
        int cases = 0;
        for (int i = 0; i < suites.getLength(); i++) {
            Element s = (Element) suites.item(i);
            names.add(s.getAttribute("name") + " tests=" + s.getAttribute("tests") + " failures="
                    + s.getAttribute("failures") + " errors=" + s.getAttribute("errors") + " skipped="
                    + s.getAttribute("skipped"));
            assertThat(s.getAttribute("time")).matches("[0-9]+\\.[0-9]{3}");
            NodeList tcs = s.getElementsByTagName("testcase");
            assertThat(tcs.getLength()).isEqualTo(Integer.parseInt(s.getAttribute("tests")));
            for (int j = 0; j < tcs.getLength(); j++) {
                Element tc = (Element) tcs.item(j);
                assertThat(tc.getAttribute("classname")).startsWith(s.getAttribute("name"));
                assertThat(tc.getAttribute("name")).isNotBlank();
                assertThat(tc.getAttribute("time")).matches("[0-9]+\\.[0-9]{3}");
                cases++;
            }
        }
        assertThat(names).containsExactly(
                "onceproof.claims.tiny tests=4 failures=1 errors=0 skipped=1",
                "onceproof.models.tiny tests=2 failures=0 errors=0 skipped=0",
                "onceproof.traces.tiny tests=4 failures=4 errors=0 skipped=0");
        assertThat(cases).isEqualTo(10);
        Element failure = (Element) root.getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("message")).isNotBlank().doesNotContain("\n");
        assertThat(failure.getAttribute("type")).isEqualTo("fail");
        assertThat(failure.getTextContent()).contains("it takes one step").contains("measured: 3 steps");
    }

    @Test
    void aModelThatDisagreesCarriesItsCounterexampleInTheJunitFailure() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        Files.writeString(repo.manifestFile(), Files.readString(repo.manifestFile())
                .replace("\"expect\": \"Small\"", "\"expect\": \"pass\""));
        Path junit = dir.resolve("junit");
        CliRun r = run("verify", "--models-only", "--repo", repo.root().toString(), "--junit", junit.toString());
        assertThat(r.exit()).isEqualTo(1);
        String xml = Files.readString(junit.resolve("TEST-onceproof.xml"));
        assertThat(xml).contains("<testcase classname=\"onceproof.models.tiny\" name=\"tiny-small-mutant\"")
                .contains("<failure message=\"fail: manifest says pass, TLC found Small")
                .contains("Invariant Small is violated after 2 steps:").contains("Inc(n=2)");
    }

    @Test
    void aStaleClaimIsShownButFailsOnlyUnderStrictClaims() throws Exception {
        Repo repo = ClaimsReaderTest.withClaims(dir);
        Path claims = repo.root().resolve("bench/results/tiny/claims.json");
        Files.writeString(claims, Files.readString(claims).replace("\"verdict\": \"FAIL\"", "\"verdict\": \"PASS\""));
        CliRun fresh = run("verify", "--models-only", "--repo", repo.root().toString());
        assertThat(fresh.exit()).as(fresh.out()).isZero();
        assertThat(fresh.out()).contains("claims/tiny: 3 ok, 0 fail, 0 stale, 1 not run").contains("3/4 claims ok");

        Path spec = repo.specs().resolve("tiny/Counter.tla");
        Files.writeString(spec, Files.readString(spec) + "\n\\* an edit after the module's end\n");
        CliRun stale = run("verify", "--models-only", "--repo", repo.root().toString());
        assertThat(stale.exit()).as(stale.out()).isZero();
        assertThat(stale.out()).contains("claims/tiny: 0 ok, 0 fail, 4 stale (not failing; --strict-claims fails on them)")
                .contains("stale: inputs changed since the bench ran");
        CliRun strict = run("verify", "--models-only", "--strict-claims", "--repo", repo.root().toString());
        assertThat(strict.exit()).isEqualTo(1);
        assertThat(strict.out()).contains("claim bench/results/tiny bound-holds (Sec. 1, L10): stale: inputs changed");
    }
}
