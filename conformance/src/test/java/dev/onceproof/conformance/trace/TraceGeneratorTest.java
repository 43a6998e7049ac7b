package dev.onceproof.conformance.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceGeneratorTest {

    @TempDir
    Path dir;

    /**
     * One generation of the tiny repo, shared by the tests that only read it: each generation is
     * three TLC runs, and the class made four of the same (the repeat in the byte-identity test,
     * which makes its own second one in another folder, is what checks determinism).
     */
    private static List<GeneratedTrace> shared;

    @BeforeAll
    static void generateOnce(@TempDir Path sharedDir) {
        shared = generateAll(TinyRepo.copyTo(sharedDir));
    }

    private static List<GeneratedTrace> generateAll(Repo repo) {
        TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(2));
        Manifest m = repo.manifest();
        List<GeneratedTrace> all = new ArrayList<>();
        m.traces().forEach(t -> all.addAll(g.generate(t)));
        return all;
    }

    @Test
    void generationIsByteIdenticalWhenRepeated() throws Exception {
        // The shared generation was made in another folder: the bytes must not depend on where the repo is.
        Repo repo = TinyRepo.copyTo(dir);
        List<Path> first = TraceGenerator.write(repo.traces(), shared);
        List<byte[]> bytes = new ArrayList<>();
        for (Path p : first) {
            bytes.add(Files.readAllBytes(p));
        }
        List<Path> second = TraceGenerator.write(repo.traces(), generateAll(repo));
        assertThat(second).isEqualTo(first);
        for (int i = 0; i < first.size(); i++) {
            assertThat(Files.readAllBytes(second.get(i))).as(second.get(i).toString()).isEqualTo(bytes.get(i));
        }
        assertThat(first).extracting(p -> p.getFileName().toString())
                .containsExactly("tiny-sim-seed1.jsonl", "tiny-sim-seed2.jsonl", "tiny-two.jsonl");
    }

    @Test
    void traceFilesFollowTheConventions() {
        List<GeneratedTrace> all = shared;
        TraceFile sim = TraceCodec.parse(Path.of("tiny-sim-seed1.jsonl"), all.get(0).content());
        assertThat(sim.header().spec()).isEqualTo("Counter");
        assertThat(sim.header().seed()).isEqualTo(1L);
        assertThat(sim.header().depth()).isEqualTo(8);
        assertThat(sim.header().command()).isEqualTo("./onceproof traces generate --name tiny-sim");
        assertThat(sim.header().constants().toString()).isEqualTo("{\"Max\":4}");
        assertThat(sim.steps().get(0).action()).isEqualTo("Init");
        assertThat(sim.steps().get(0).state().toString())
                .isEqualTo("{\"flags\":{\"a\":false,\"b\":false},\"hist\":[],\"x\":0}");
        assertThat(sim.steps().size()).isBetween(2, 8);
        assertThat(all.get(0).content().lines().skip(1).findFirst().orElseThrow())
                .startsWith("{\"action\":\"Init\",\"params\":{},\"state\":");

        TraceFile two = TraceCodec.parse(Path.of("tiny-two.jsonl"), all.get(2).content());
        assertThat(two.header().trap()).isEqualTo("NotReachedTwo");
        assertThat(two.header().seed()).isNull();
        // BFS finds the shortest way to x = 2: one Inc(2).
        assertThat(two.steps()).hasSize(2);
        assertThat(two.steps().get(1).params().toString()).isEqualTo("{\"n\":2}");
    }

    @Test
    void actionsNoTraceTakesAreReported() {
        assertThat(TraceGenerator.uncovered(shared)).containsOnlyKeys("tiny")
                .extractingByKey("tiny").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.COLLECTION)
                .contains("Never");
    }
}
