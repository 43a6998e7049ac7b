package dev.onceproof.bench.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.bench.claims.PaperClaim.Basis;
import dev.onceproof.bench.claims.PaperClaim.Verdict;
import dev.onceproof.provenance.InputsHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** claims.json as helper B's verify and helper C's report read it (issue 18, item 1). */
class ClaimsFileTest {

    private static final List<String> INPUTS = List.of("bench/src/main/java/x", "impl/src/main/java/y", "bench/pom.xml");

    /** A small repository: the marker files of a root and one file in each input. */
    private static Path repo(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("specs"));
        Files.writeString(dir.resolve("specs/manifest.json"), "{}");
        Files.createDirectories(dir.resolve("bench/src/main/java/x"));
        Files.createDirectories(dir.resolve("impl/src/main/java/y/z"));
        Files.writeString(dir.resolve("bench/pom.xml"), "<project/>");
        Files.writeString(dir.resolve("bench/src/main/java/x/A.java"), "class A {}\n");
        Files.writeString(dir.resolve("impl/src/main/java/y/z/B.java"), "class B {}\n");
        return dir;
    }

    private static List<PaperClaim> claims() {
        return List.of(
                PaperClaim.of("c1", "Fig. 4, L343", "about 12 slots", Verdict.PASS, "12", "11..13", Basis.CLOSED_FORM, ""),
                PaperClaim.of("c2", "Fig. 5, L358", "zero while setting up", Verdict.PASS, "0", "identity: ...",
                        Basis.IDENTITY, ""),
                PaperClaim.of("c3", "App. B.4", "S4 at base", Verdict.GAP, "0.20 [0.17, 0.24]", "0.40", Basis.STOCHASTIC,
                        "the slowest of 9 round trips"));
    }

    @Test
    void everySchemaFieldIsWrittenAndTheHashRecomputesEqual(@TempDir Path tmp) throws Exception {
        Path root = repo(tmp);
        Path file = ClaimsFile.write(root, root.resolve("bench/results/fam"), "fam", "./onceproof bench fam --seed 1",
                INPUTS, claims());
        JsonNode n = new ObjectMapper().readTree(file.toFile());
        assertThat(n.get("schema").asText()).isEqualTo("onceproof-claims/1");
        assertThat(n.get("family").asText()).isEqualTo("fam");
        assertThat(n.get("command").asText()).isEqualTo("./onceproof bench fam --seed 1");
        assertThat(n.get("inputs")).hasSize(3);
        assertThat(n.get("inputsHash").asText()).startsWith("sha256:").isEqualTo(InputsHash.of(root, INPUTS));
        assertThat(n.get("claims")).hasSize(3);
        for (JsonNode c : n.get("claims")) {
            for (String f : List.of("id", "location", "statement", "verdict", "measured", "expected", "basis", "canFail",
                    "reason")) {
                assertThat(c.has(f)).as(c.get("id") + " has " + f).isTrue();
            }
        }
        assertThat(n.get("claims").get(1).get("basis").asText()).isEqualTo("identity");
        assertThat(n.get("claims").get(1).get("canFail").asBoolean()).isFalse();
        assertThat(n.get("claims").get(2).get("verdict").asText()).isEqualTo("GAP");
        assertThat(n.get("claims").get(2).get("canFail").asBoolean()).isTrue();
        assertThat(ClaimsFile.fresh(root, file)).isTrue();
    }

    @Test
    void touchingAnInputMakesTheFileStale(@TempDir Path tmp) throws Exception {
        Path root = repo(tmp);
        Path file = ClaimsFile.write(root, root.resolve("out"), "fam", "cmd", INPUTS, claims());
        Files.writeString(root.resolve("impl/src/main/java/y/z/B.java"), "class B { int changed; }\n");
        assertThat(ClaimsFile.fresh(root, file)).isFalse();
    }

    @Test
    void aFileOutsideTheInputsDoesNotMakeItStale(@TempDir Path tmp) throws Exception {
        Path root = repo(tmp);
        Path file = ClaimsFile.write(root, root.resolve("out"), "fam", "cmd", INPUTS, claims());
        Files.writeString(root.resolve("specs/manifest.json"), "{\"changed\": true}");
        assertThat(ClaimsFile.fresh(root, file)).isTrue();
    }

    @Test
    void canFailIsFalseExactlyForIdentities() {
        assertThatThrownBy(() -> new PaperClaim("x", "L1", "s", Verdict.PASS, "m", "e", Basis.IDENTITY, true, ""))
                .hasMessageContaining("canFail is true with basis identity");
        assertThatThrownBy(() -> new PaperClaim("x", "L1", "s", Verdict.PASS, "m", "e", Basis.STOCHASTIC, false, ""))
                .hasMessageContaining("canFail is false with basis stochastic");
    }

    @Test
    void theRootIsFoundFromBelowAndAMissingOneIsNamed(@TempDir Path tmp) throws Exception {
        Path root = repo(tmp);
        assertThat(ClaimsFile.repoRoot(root.resolve("bench/src/main/java/x"))).isEqualTo(root.toAbsolutePath());
        assertThatThrownBy(() -> ClaimsFile.repoRoot(tmp.resolve("bench/src/main/java/x").getRoot()))
                .hasMessageContaining("no repository root");
    }
}
