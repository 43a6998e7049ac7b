package dev.onceproof.bench.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.storage.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's two modes are what their names say: the baseline takes one fsync per operation. */
class JournalBenchSmokeTest {

    @TempDir
    Path dir;

    @Test
    void perOperationTakesAnFsyncPerOperationAndBothModesCommit() throws Exception {
        JournalBench.Run perOp = JournalBench.run(dir.resolve("p"), Journal.Commit.PER_OPERATION, 4, 100, 0.2);
        JournalBench.Run group = JournalBench.run(dir.resolve("g"), Journal.Commit.GROUP, 4, 100, 0.2);
        assertThat(perOp.ops()).isPositive();
        assertThat(group.ops()).isPositive();
        assertThat(perOp.fsyncs()).isEqualTo(perOp.ops());
        assertThat(group.fsyncs()).isBetween(1L, group.ops());
        try (var left = Files.list(dir.resolve("p"))) {
            assertThat(left).as("the run deletes its directory").isEmpty();
        }
    }
}
