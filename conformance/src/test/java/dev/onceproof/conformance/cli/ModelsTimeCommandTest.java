package dev.onceproof.conformance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.trace.TinyRepo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code models time} records each run's seconds, and only those, in the manifest. */
class ModelsTimeCommandTest {

    @TempDir
    Path dir;

    @Test
    void everyEntryGetsItsSecondsAndNothingElseChanges() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        // A model that disagrees with the manifest has no meaningful time: it is named, not recorded.
        Files.writeString(repo.manifestFile(), Files.readString(repo.manifestFile())
                .replace("\"distinctStates\": 5,", "\"distinctStates\": 6,"));
        String before = Files.readString(repo.manifestFile());
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        int exit = cl.execute("models", "time", "--repo", repo.root().toString());
        assertThat(exit).as(out.toString()).isEqualTo(1);
        assertThat(out.toString()).contains("tiny-small-mutant: NOT RECORDED").contains("trace tiny-sim: ")
                .contains("Recorded 3 seconds");
        Manifest m = repo.manifest();
        assertThat(m.models().get(0).seconds()).isPositive();
        assertThat(m.models().get(1).seconds()).isNull();
        assertThat(m.traces()).allSatisfy(t -> assertThat(t.seconds()).isPositive());
        String after = Files.readString(repo.manifestFile());
        assertThat(after.replaceAll("\"seconds\": [0-9.]+,\\s*", "")).isEqualTo(before);
    }
}
