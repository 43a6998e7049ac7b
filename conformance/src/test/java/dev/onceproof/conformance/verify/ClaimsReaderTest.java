package dev.onceproof.conformance.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.trace.TinyRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed evaluation claims (bench/results/&lt;family&gt;/claims.json) as verify reports them, on a
 * fixture (src/test/resources/claims/tiny-claims.json) whose inputs are the tiny repo's specs/tiny.
 */
public class ClaimsReaderTest {

    @TempDir
    Path dir;

    public static Repo withClaims(Path dir) throws IOException {
        Repo repo = TinyRepo.copyTo(dir);
        Path claims = repo.root().resolve("bench/results/tiny/claims.json");
        Files.createDirectories(claims.getParent());
        try (var in = ClaimsReaderTest.class.getResourceAsStream("/claims/tiny-claims.json")) {
            Files.copy(in, claims);
        }
        return repo;
    }

    private static String status(List<VerifyResults.Claim> claims, String id) {
        return claims.stream().filter(c -> id.equals(c.id())).findFirst().orElseThrow().status();
    }

    @Test
    void eachVerdictWithItsInputsUnchangedHasItsStatus() throws IOException {
        List<VerifyResults.Claim> claims = ClaimsReader.read(withClaims(dir), null);
        assertThat(claims).hasSize(4);
        assertThat(status(claims, "bound-holds")).isEqualTo("ok");
        assertThat(status(claims, "gap-explained")).isEqualTo("ok");
        assertThat(status(claims, "too-fast")).isEqualTo("fail");
        assertThat(status(claims, "later")).isEqualTo("skipped");
        VerifyResults.Claim gap = claims.get(1);
        assertThat(gap.measured()).isEqualTo("1.42");
        assertThat(gap.location()).isEqualTo("Fig. 2");
        assertThat(gap.file()).isEqualTo("bench/results/tiny/claims.json");
        assertThat(ClaimsReader.read(withClaims(dir.resolve("b")), "other")).isEmpty();
    }

    @Test
    void anEditedInputMakesEveryClaimOfTheFileStaleNamingTheRerun() throws IOException {
        Repo repo = withClaims(dir);
        Path spec = repo.specs().resolve("tiny/Counter.tla");
        Files.writeString(spec, Files.readString(spec) + "\n\\* an edit\n");
        List<VerifyResults.Claim> claims = ClaimsReader.read(repo, null);
        assertThat(claims).extracting(VerifyResults.Claim::status).containsOnly("stale");
        assertThat(claims.get(0).reason()).contains("inputs changed since the bench ran")
                .contains("./onceproof bench tiny --seed 1");
        assertThat(claims.get(2).verdict()).as("the verdict stays visible").isEqualTo("FAIL");
    }

    @Test
    void aGoneInputIsStaleToo() throws IOException {
        Repo repo = withClaims(dir);
        Files.delete(repo.specs().resolve("tiny/MCCounterTrap.cfg"));
        Files.writeString(repo.root().resolve("bench/results/tiny/claims.json"), Files.readString(repo.root()
                .resolve("bench/results/tiny/claims.json")).replace("[\"specs/tiny\"]", "[\"specs/tiny\", \"gone\"]"));
        assertThat(ClaimsReader.read(repo, null)).extracting(VerifyResults.Claim::status).containsOnly("stale");
    }

    @Test
    void aBrokenFileIsOneErrorNamingTheFileAndTheField() throws IOException {
        Repo repo = withClaims(dir);
        Path f = repo.root().resolve("bench/results/tiny/claims.json");
        Files.writeString(f, Files.readString(f).replace("\"verdict\": \"GAP\"", "\"verdict\": \"MAYBE\""));
        List<VerifyResults.Claim> claims = ClaimsReader.read(repo, null);
        assertThat(claims).hasSize(1);
        assertThat(claims.get(0).status()).isEqualTo("error");
        assertThat(claims.get(0).reason()).isEqualTo("bench/results/tiny/claims.json: field \"claims[1].verdict\""
                + " (gap-explained): is \"MAYBE\"; it must be one of [FAIL, GAP, NOT_RUN, PASS]");

        Files.writeString(f, "{ \"schema\": \"onceproof-claims/1\", \"family\": \"tiny\" ");
        assertThat(ClaimsReader.read(repo, null).get(0).reason()).startsWith("bench/results/tiny/claims.json: is not"
                + " valid JSON");
        Files.writeString(f, "{ \"schema\": \"onceproof-claims/1\", \"family\": \"tiny\", \"inputs\": [\"specs\"] }");
        assertThat(ClaimsReader.read(repo, null).get(0).reason()).isEqualTo("bench/results/tiny/claims.json: field"
                + " \"inputsHash\": is missing");
    }
}
