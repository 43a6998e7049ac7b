package dev.onceproof.conformance.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.tlc.TlcJobs;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.trace.GeneratedTrace;
import dev.onceproof.conformance.trace.TraceGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Behaviours the stored traces do not hold: each simulation entry of the manifest is run with a new
 * seed on every test run and replayed. The seed base is printed (and can be pinned with
 * -Donceproof.seedBase=N) so a failure reproduces with ./onceproof verify --seed-base N. Each run
 * writes under a private temp root, which must be empty again afterwards (issue 13: a day of runs
 * had left 28 directories in the system temp folder).
 */
class FreshTraceReplayTest {

    static Path tempRoot;

    @BeforeAll
    static void makeRoot() throws IOException {
        tempRoot = Files.createTempDirectory("onceproof-fresh-test");
    }

    @AfterAll
    static void removeRoot() throws IOException {
        MoreFiles.deleteRecursively(tempRoot, RecursiveDeleteOption.ALLOW_INSECURE);
    }

    @TestFactory
    Stream<DynamicTest> freshSimulationsReplayOnTheCore() {
        Repo repo = Repo.locate();
        long base = Long.getLong("onceproof.seedBase", System.currentTimeMillis());
        System.out.println("FreshTraceReplayTest: seed base " + base);
        TraceGenerator generator = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(10));
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        // TLC makes the traces side by side (one worker each, so each is what its seed gives); each
        // test waits for its own and replays it.
        ExecutorService pool = Executors.newFixedThreadPool(TlcJobs.defaultJobs());
        List<TraceEntry> sims = simulations(repo);
        List<Future<GeneratedTrace>> made = sims.stream()
                .map(e -> pool.submit(() -> generator.generate(e, FreshReplay.seeds(e, base, 1).get(0)))).toList();
        pool.shutdown();
        return IntStream.range(0, sims.size()).mapToObj(i -> DynamicTest.dynamicTest(sims.get(i).name()
                + " with a new seed", () -> {
            List<ReplayResult> results = FreshReplay.replay(List.of(made.get(i).get()), replayer, tempRoot);
            assertThat(results).hasSize(1);
            for (ReplayResult r : results) {
                assertThat(r.passed()).as("seed base " + base + ": " + r.report()).isTrue();
            }
            assertThat(contents(tempRoot)).as("fresh traces left behind").isEmpty();
        }));
    }

    @Test
    void aFailedReplayKeepsTheTraceItNames(@TempDir Path root) {
        // No replayer knows the spec, so the replay fails; the file its report names must still exist.
        Repo repo = Repo.locate();
        TraceEntry sim = simulations(repo).get(0);
        TraceGenerator generator = new TraceGenerator(repo, new TlcRunner(), Duration.ofMinutes(10));
        List<ReplayResult> results = FreshReplay.run(List.of(sim), generator,
                new TraceReplayer(new ReplayerRegistry(List.of())), 1, 1, root);
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.passed()).isFalse();
            assertThat(r.file()).exists().startsWith(root);
        });
    }

    private static List<TraceEntry> simulations(Repo repo) {
        return repo.manifest().traces().stream().filter(t -> t.kind() == TraceEntry.Kind.SIMULATE).toList();
    }

    private static List<Path> contents(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
