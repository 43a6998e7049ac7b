package dev.onceproof.conformance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.trace.TinyRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ./onceproof commands, run in-process on the tiny Counter repo (src/test/resources/tinyrepo). */
class MainTest {

    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void everyCommandIsRegisteredInMain() {
        assertThat(Main.commandLine().getSubcommands().keySet())
                .contains("verify", "traces", "replay", "models", "serve", "call");
    }

    @Test
    void verifyPrintsTheTableAndPassesWhenTlcAgreesWithTheManifest() {
        Repo repo = TinyRepo.copyTo(dir);
        CliRun r = run("verify", "--models-only", "--repo", repo.root().toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        // Progress lines are numbered in the order TLCs finish, which varies when two run side by side.
        assertThat(r.out()).containsPattern("\\[[12]/2\\] tiny-pass: pass, 45 distinct states, depth 6")
                .contains("model              mode  expected  outcome  distinct states  depth")
                .contains("OK: 2/2 models as the manifest says");
    }

    @Test
    void verifyFailsNamingTheManifestNumberThatChanged() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        Files.writeString(repo.manifestFile(), Files.readString(repo.manifestFile()).replace("\"distinctStates\": 45",
                "\"distinctStates\": 44"));
        CliRun r = run("verify", "--models-only", "--repo", repo.root().toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("tiny-pass: manifest says 44 distinct states, TLC found 45: update the manifest"
                + " if the spec change was intended").contains("FAILED: 1/2 models as the manifest says");
    }

    @Test
    void verifyShowsTheCounterexampleWhenAModelStopsPassing() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        Files.writeString(repo.manifestFile(), Files.readString(repo.manifestFile())
                .replace("\"expect\": \"Small\"", "\"expect\": \"pass\""));
        CliRun r = run("verify", "--models-only", "--repo", repo.root().toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("tiny-small-mutant: manifest says pass, TLC found Small")
                .contains("tiny-small-mutant: Invariant Small is violated after 2 steps:")
                .contains("Inc(n=2)");
    }

    @Test
    void brokenManifestIsAnInputErrorNamingTheEntry() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        Files.writeString(repo.manifestFile(), Files.readString(repo.manifestFile()).replace("\"mode\": \"ci\"", "\"mode\": \"nightly\""));
        CliRun r = run("models", "list", "--repo", repo.root().toString());
        assertThat(r.exit()).isEqualTo(Main.INPUT_ERROR);
        assertThat(r.err()).contains("models[0] \"tiny-pass\": field \"mode\": is \"nightly\"");
    }

    @Test
    void tracesGenerateThenCheckIsFreshAndReplayNamesAMissingReplayer() {
        Repo repo = TinyRepo.copyTo(dir);
        assertThat(run("traces", "generate", "--repo", repo.root().toString()).exit()).isZero();
        CliRun check = run("traces", "check", "--repo", repo.root().toString());
        assertThat(check.exit()).as(check.out()).isZero();
        assertThat(check.out()).contains("tiny: 3 traces regenerated, all fresh");
        CliRun replay = run("replay", "--repo", repo.root().toString());
        assertThat(replay.exit()).isEqualTo(1);
        assertThat(replay.out()).contains("tiny-two.jsonl:1: no replayer for spec \"Counter\" (replayers: ");
    }

    @Test
    void modelsCheckShowsTheMutantsCounterexample() {
        Repo repo = TinyRepo.copyTo(dir);
        CliRun r = run("models", "check", "tiny-small-mutant", "--repo", repo.root().toString());
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("tiny-small-mutant: Small, 5 distinct states, depth 3")
                .contains("as the manifest says")
                .contains("Invariant Small is violated after 2 steps:")
                .containsPattern("\\s1  Inc\\(n=1\\)\\s+flags\\s+\\[a \\|-> TRUE, b \\|-> FALSE\\]");
    }
}
