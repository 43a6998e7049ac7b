package dev.onceproof.rpc.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutionJournalTest {

    @TempDir
    Path dir;

    @Test
    void executionsSurviveReopenAndCountOn() throws Exception {
        Path file = dir.resolve("journal");
        try (ExecutionJournal j = ExecutionJournal.open(file)) {
            assertThat(j.append(ConnId.of("c1"), Timestamp.of(5), new byte[] {1, 2})).isEqualTo(1);
            assertThat(j.append(ConnId.of("c2"), Timestamp.of(7), new byte[0])).isEqualTo(2);
        }
        try (ExecutionJournal j = ExecutionJournal.open(file)) {
            assertThat(j.executions()).isEqualTo(2);
            assertThat(j.append(ConnId.of("c1"), Timestamp.of(9), new byte[] {3})).isEqualTo(3);
        }
        ExecutionJournal.Contents read = ExecutionJournal.read(file);
        assertThat(read.entries()).extracting(ExecutionJournal.Entry::callId)
                .containsExactly("c1/5", "c2/7", "c1/9");
        assertThat(read.entries().get(0).args()).containsExactly(1, 2);
        assertThat(read.tornTailBytes()).isZero();
    }

    @Test
    void tornTailLeftByACrashIsDroppedOnOpen() throws Exception {
        Path file = dir.resolve("journal");
        Files.writeString(file, "c1 5 01\nc2 6 0", StandardCharsets.US_ASCII);
        assertThat(ExecutionJournal.read(file).tornTailBytes()).isEqualTo(6);
        try (ExecutionJournal j = ExecutionJournal.open(file)) {
            assertThat(j.executions()).isEqualTo(1);
            j.append(ConnId.of("c3"), Timestamp.of(8), new byte[0]);
        }
        assertThat(Files.readString(file)).isEqualTo("c1 5 01\nc3 8 \n");
    }

    @Test
    void corruptLineIsRefusedWithItsLineNumber() throws Exception {
        Path file = dir.resolve("journal");
        Files.writeString(file, "c1 5 01\nc2 notanumber 00\n", StandardCharsets.US_ASCII,
                StandardOpenOption.CREATE);
        assertThatThrownBy(() -> ExecutionJournal.open(file))
                .hasMessageContaining("line 2").hasMessageContaining(file.toString());
    }
}
