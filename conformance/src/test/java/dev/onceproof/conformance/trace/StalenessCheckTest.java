package dev.onceproof.conformance.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StalenessCheckTest {

    @TempDir
    Path dir;

    /**
     * The traces of the unchanged tiny repo, generated once for the class (three TLC runs) in a
     * folder of its own: the tests that start from fresh traces copy them instead of generating
     * the same three each. (Generation does not depend on where the repo is: TraceGeneratorTest.)
     */
    private static List<GeneratedTrace> fresh;

    @BeforeAll
    static void generateOnce(@TempDir Path sharedDir) {
        Repo repo = TinyRepo.copyTo(sharedDir);
        TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(2));
        fresh = StalenessCheck.check(repo, repo.manifest(), "tiny", g).generated();
    }

    @Test
    void staleMissingAndExtraTracesAreEachNamed() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(2));
        StalenessCheck.Report first = StalenessCheck.check(repo, repo.manifest(), "tiny", g);
        assertThat(first.problems()).allMatch(p -> p.startsWith("missing: traces/tiny/")).hasSize(3);

        TraceGenerator.write(repo.traces(), first.generated());
        assertThat(StalenessCheck.check(repo, repo.manifest(), "tiny", g).fresh()).isTrue();

        Path seed1 = repo.traces().resolve("tiny/tiny-sim-seed1.jsonl");
        Files.writeString(seed1, Files.readString(seed1).replaceFirst("\"x\":0", "\"x\":7"));
        Files.delete(repo.traces().resolve("tiny/tiny-two.jsonl"));
        Files.writeString(repo.traces().resolve("tiny/old-trace.jsonl"), "{}\n");
        assertThat(StalenessCheck.check(repo, repo.manifest(), "tiny", g).problems()).containsExactly(
                "stale: traces/tiny/tiny-sim-seed1.jsonl differs from a fresh generation at line 2"
                        + " (run ./onceproof traces generate --name tiny-sim)",
                "missing: traces/tiny/tiny-two.jsonl (run ./onceproof traces generate --name tiny-two)",
                "extra: traces/tiny/old-trace.jsonl is made by no manifest entry"
                        + " (delete it, or add its entry to specs/manifest.json)");
    }

    private static final StalenessCheck.Mode BY_INPUTS = StalenessCheck.Mode.BY_INPUTS;

    private static List<String> regenerated(Repo repo) {
        return StalenessCheck.plan(repo, repo.manifest(), "tiny", new TraceInputs(repo), BY_INPUTS).regenerate()
                .stream().map(StalenessCheck.Expected::fileName).toList();
    }

    @Test
    void freshTracesAreShownFreshByTheirHeadersWithoutRunningTlc() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        TraceGenerator.write(repo.traces(), fresh);

        // A generator whose TLC cannot run: the check must not need it.
        TraceGenerator noTlc = new TraceGenerator(repo, null, Duration.ofMinutes(2));
        StalenessCheck.Report r = StalenessCheck.check(repo, repo.manifest(), "tiny", noTlc, BY_INPUTS);
        assertThat(r.problems()).isEmpty();
        assertThat(r.generated()).isEmpty();
        assertThat(r.unchanged()).extracting(GeneratedTrace::fileName)
                .containsExactly("tiny-sim-seed1.jsonl", "tiny-sim-seed2.jsonl", "tiny-two.jsonl");
        assertThat(r.unchanged().get(2).taken()).containsExactly("Inc");
    }

    @Test
    void changingAModuleTheModelExtendsMarksEveryTraceOfItStale() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(2));
        TraceGenerator.write(repo.traces(), fresh);
        assertThat(regenerated(repo)).isEmpty();

        // Counter.tla is reached from the model MCCounter by EXTENDS. Even a new comment is a change
        // of an input: the check regenerates, and the header's inputs differ from the stored one.
        Path counter = repo.specs().resolve("tiny/Counter.tla");
        Files.writeString(counter, Files.readString(counter).replace("VARIABLES x,", "\\* a comment\nVARIABLES x,"));
        assertThat(regenerated(repo)).containsExactly("tiny-sim-seed1.jsonl", "tiny-sim-seed2.jsonl", "tiny-two.jsonl");
        StalenessCheck.Report r = StalenessCheck.check(repo, repo.manifest(), "tiny", g, BY_INPUTS);
        assertThat(r.problems()).containsExactly(
                "stale: traces/tiny/tiny-sim-seed1.jsonl differs from a fresh generation at line 1"
                        + " (run ./onceproof traces generate --name tiny-sim)",
                "stale: traces/tiny/tiny-sim-seed2.jsonl differs from a fresh generation at line 1"
                        + " (run ./onceproof traces generate --name tiny-sim)",
                "stale: traces/tiny/tiny-two.jsonl differs from a fresh generation at line 1"
                        + " (run ./onceproof traces generate --name tiny-two)");

        // Regenerated, they are fresh again by their headers.
        TraceGenerator.write(repo.traces(), r.generated());
        assertThat(regenerated(repo)).isEmpty();

        // A change of behaviour is found the same way, and named at the first step that differs.
        Files.writeString(counter, Files.readString(counter).replace("x' = x + n", "x' = x + n + 0 * n"));
        assertThat(regenerated(repo)).hasSize(3);
    }

    @Test
    void unrelatedChangesLeaveTheTracesFreshAndACfgCountsOnlyForItsOwnEntry() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        // A module of the family that the model mentions only in a comment and a string.
        Path family = repo.specs().resolve("tiny");
        Path helper = family.resolve("Helper.tla");
        Files.writeString(helper, "---- MODULE Helper ----\nK == 1\n====\n");
        Path model = family.resolve("MCCounter.tla");
        Files.writeString(model, Files.readString(model).replace("(* The tiny family's", "(* Helper: the tiny family's")
                .replace("EXTENDS Counter", "EXTENDS Counter \\* not Helper\nName == \"Helper\""));
        TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(2));
        // The model is edited, so the shared traces are not its own: generate.
        TraceGenerator.write(repo.traces(), StalenessCheck.check(repo, repo.manifest(), "tiny", g).generated());
        assertThat(regenerated(repo)).isEmpty();

        // That module, a module of another family, a manifest entry's "why", a cfg no trace uses.
        Files.writeString(helper, "---- MODULE Helper ----\nK == 2\n====\n");
        Files.createDirectories(repo.specs().resolve("other"));
        Files.writeString(repo.specs().resolve("other/Counter.tla"), "---- MODULE Counter ----\n====\n");
        Files.writeString(repo.manifestFile(), Files.readString(repo.manifestFile())
                .replace("\"why\": \"random walks\"", "\"why\": \"random walks of the counter\""));
        Path smallCfg = family.resolve("MCCounterSmall.cfg");
        Files.writeString(smallCfg, Files.readString(smallCfg) + "\\* edited\n");
        assertThat(regenerated(repo)).isEmpty();

        // The targeted entry's own cfg: only its trace.
        Path trapCfg = family.resolve("MCCounterTrap.cfg");
        Files.writeString(trapCfg, Files.readString(trapCfg) + "\\* edited\n");
        assertThat(regenerated(repo)).containsExactly("tiny-two.jsonl");

        // Once the model INSTANCEs the module, the module is an input.
        Files.writeString(model, Files.readString(model).replace("Name ==", "H == INSTANCE Helper\nName =="));
        TraceGenerator.write(repo.traces(), StalenessCheck.check(repo, repo.manifest(), "tiny", g, BY_INPUTS).generated());
        assertThat(regenerated(repo)).isEmpty();
        Files.writeString(helper, "---- MODULE Helper ----\nK == 3\n====\n");
        assertThat(regenerated(repo)).hasSize(3);
    }

    @Test
    void aTraceEditedAfterGenerationIsRegeneratedAndReportedStale() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(2));
        TraceGenerator.write(repo.traces(), fresh);
        Path seed1 = repo.traces().resolve("tiny/tiny-sim-seed1.jsonl");
        Files.writeString(seed1, Files.readString(seed1).replaceFirst("\"x\":0", "\"x\":7"));
        Path two = repo.traces().resolve("tiny/tiny-two.jsonl");
        // The same header, re-spaced: not what the generator wrote either.
        Files.writeString(two, Files.readString(two).replaceFirst("\\{\"cfg\":", "{ \"cfg\":"));
        assertThat(regenerated(repo)).containsExactly("tiny-sim-seed1.jsonl", "tiny-two.jsonl");
        assertThat(StalenessCheck.check(repo, repo.manifest(), "tiny", g, BY_INPUTS).problems()).containsExactly(
                "stale: traces/tiny/tiny-sim-seed1.jsonl differs from a fresh generation at line 2"
                        + " (run ./onceproof traces generate --name tiny-sim)",
                "stale: traces/tiny/tiny-two.jsonl differs from a fresh generation at line 1"
                        + " (run ./onceproof traces generate --name tiny-two)");
    }
}
