package dev.onceproof.conformance.crash.gather;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The aDeliver journal: a line on disk is a processing; an unfinished last line is none. */
class ProcessedJournalTest {

    @TempDir
    Path dir;

    @Test
    void appendedLinesAreReadBackAndAnUnfinishedTailIsNoProcessing() throws Exception {
        Path file = dir.resolve("processed");
        try (ProcessedJournal j = ProcessedJournal.open(file)) {
            j.append("n1", 1);
            j.append("n2", 3);
        }
        Files.writeString(file, "n3 4", StandardCharsets.US_ASCII, java.nio.file.StandardOpenOption.APPEND);
        assertThat(ProcessedJournal.read(file)).containsExactly(new ProcessedJournal.Entry("n1", 1),
                new ProcessedJournal.Entry("n2", 3));
        try (ProcessedJournal j = ProcessedJournal.open(file)) { // cuts the tail, then appends after it
            assertThat(j.contains("n3")).isFalse();
            j.append("n4", 5);
            assertThat(j.contains("n4")).isTrue();
        }
        assertThat(Files.readString(file)).isEqualTo("n1 1\nn2 3\nn4 5\n");
    }

    @Test
    void aMalformedLineIsRefusedNamingTheFileAndLine() throws Exception {
        Path file = dir.resolve("processed");
        Files.writeString(file, "n1 1\nn2 x\n");
        assertThatThrownBy(() -> ProcessedJournal.read(file)).hasMessageContaining(file.toString())
                .hasMessageContaining("line 2").hasMessageContaining("n2 x");
    }

    @Test
    void aJournalNeverWrittenHoldsNothing() {
        assertThat(ProcessedJournal.read(dir.resolve("absent"))).isEmpty();
    }
}
