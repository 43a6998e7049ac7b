package dev.onceproof.conformance.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every trace stored under traces/ replays on its family's Java core, step for step. */
class StoredTraceReplayTest {

    @TestFactory
    Stream<DynamicTest> everyStoredTraceReplaysOnTheCore() {
        Repo repo = Repo.locate();
        List<Path> files = StoredTraces.all(repo);
        assertThat(files).as("stored traces under " + repo.traces()).isNotEmpty();
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        return files.stream().map(f -> DynamicTest.dynamicTest(repo.root().relativize(f).toString(), () -> {
            ReplayResult r = replayer.replay(f);
            assertThat(r.passed()).as(r.report()).isTrue();
        }));
    }
}
