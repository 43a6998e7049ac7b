package dev.onceproof.conformance.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a trace header's inputs hash covers (TraceInputs), on the tiny Counter repo. */
class TraceInputsTest {

    @TempDir
    Path dir;

    private static TraceEntry entry(Repo repo, String name) {
        return repo.manifest().traces().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theDescriptionNamesTheEntryTlcTheGeneratorTheCfgAndTheModules() {
        Repo repo = TinyRepo.copyTo(dir.resolve("repo"));
        TraceInputs inputs = new TraceInputs(repo);
        String d = inputs.describe(entry(repo, "tiny-sim"), 2L);
        assertThat(d).startsWith(TraceInputs.LAYOUT + "\nentry name=tiny-sim family=tiny module=tiny/MCCounter.tla"
                + " cfg=tiny/MCCounterSim.cfg kind=simulate seed=2 depth=8 trap=null\ntlatools ");
        assertThat(d).contains("\ngenerator trace/TraceCodec.java ", "\ngenerator tla/TlaJson.java ",
                "\ngenerator tlc/TlcRunner.java ", "\ncfg tiny/MCCounterSim.cfg ", "\nmodule tiny/Counter.tla ",
                "\nmodule tiny/MCCounter.tla ");
        assertThat(d).doesNotContain("StalenessCheck", "TlcJobs");
        // The seed is an input of a simulation; the hash is the description's.
        assertThat(inputs.hash(entry(repo, "tiny-sim"), 1L)).isNotEqualTo(inputs.hash(entry(repo, "tiny-sim"), 2L));
        assertThat(inputs.hash(entry(repo, "tiny-sim"), 2L)).isEqualTo(TraceInputs.sha256(d.getBytes()));
    }

    @Test
    void everyFileTheGeneratorLeavesOutExists() {
        Path sources = TraceInputs.locateSources();
        for (String f : TraceInputs.NOT_GENERATOR) {
            assertThat(sources.resolve(f)).as("NOT_GENERATOR names " + f).isRegularFile();
        }
    }

    @Test
    void aChangeToTheGeneratorsCodeChangesTheHashAndAChangeToTheCheckerDoesNot() throws IOException {
        Repo repo = TinyRepo.copyTo(dir.resolve("repo"));
        Path sources = dir.resolve("src");
        copy(TraceInputs.locateSources(), sources);
        TraceEntry two = entry(repo, "tiny-two");
        String before = new TraceInputs(repo, sources).hash(two, null);

        append(sources.resolve("trace/StalenessCheck.java"));
        append(sources.resolve("tlc/TextTable.java"));
        assertThat(new TraceInputs(repo, sources).hash(two, null)).isEqualTo(before);

        append(sources.resolve("tla/TlaJson.java"));
        assertThat(new TraceInputs(repo, sources).hash(two, null)).isNotEqualTo(before);
    }

    @Test
    void aNewFileInAGeneratorPackageIsAnInput() throws IOException {
        Repo repo = TinyRepo.copyTo(dir.resolve("repo"));
        Path sources = dir.resolve("src");
        copy(TraceInputs.locateSources(), sources);
        String before = new TraceInputs(repo, sources).hash(entry(repo, "tiny-two"), null);
        Files.writeString(sources.resolve("trace/Renderer.java"), "class Renderer {}\n");
        assertThat(new TraceInputs(repo, sources).hash(entry(repo, "tiny-two"), null)).isNotEqualTo(before);
    }

    @Test
    void identifiersInCommentsAndStringsAreNotModuleReferences() {
        String text = "junk \"( before the header\n"
                + "---- MODULE M ----\n"
                + "EXTENDS A, \\* B\n  C\n"
                + "(* D (* nested E *) F *)\n"
                + "X == \"G \\\" H\" \\o I\n"
                + "Y == INSTANCE J WITH k <- \"(*\"\n"
                + "Z == K\n"
                + "====\n";
        assertThat(TraceInputs.TlaIdentifiers.of(text)).contains("A", "C", "I", "J", "K", "INSTANCE", "M")
                .doesNotContain("B", "D", "E", "F", "G", "H", "junk", "before");
    }

    private static void append(Path file) throws IOException {
        Files.writeString(file, Files.readString(file) + "// changed\n");
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
