package dev.onceproof.conformance.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StalenessCheckTest {

    @TempDir
    Path dir;

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
}
