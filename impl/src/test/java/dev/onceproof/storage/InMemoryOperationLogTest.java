package dev.onceproof.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-memory log keeps the journal's contract: what a crash keeps, what a checkpoint covers, what
 * recovery returns. Checked side by side with a real {@link Journal} on the same random run.
 */
class InMemoryOperationLogTest {

    private static final Journal.Options SMALL = new Journal.Options(Journal.Commit.GROUP, 2.0, 64);

    @Test
    void aCrashLosesExactlyTheOperationsNotCommitted() {
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("n");
        InMemoryOperationLog<List<String>, String> log = InMemoryOperationLog.open(disk, Notes.CODEC, SMALL);
        log.append("a");
        long b = log.append("b");
        log.commit(b);
        log.append("c");
        disk.crash();
        assertThrows(IllegalStateException.class, () -> log.append("d"), "a crashed log takes no more operations");
        InMemoryOperationLog<List<String>, String> again = InMemoryOperationLog.open(disk, Notes.CODEC, SMALL);
        assertEquals(List.of("a", "b"), again.recovered().state(Notes.EMPTY, Notes::apply));
        assertEquals(2, again.lastSeq());
    }

    @Test
    void sameRecoveryAsTheJournalOnARandomRunWithCheckpointsAndCrashes(@TempDir Path dir) {
        Random random = new Random(7);
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("n");
        OperationLog<List<String>, String> mem = InMemoryOperationLog.open(disk, Notes.CODEC, SMALL);
        OperationLog<List<String>, String> file = Journal.open(dir, Notes.CODEC, SMALL);
        List<String> state = new ArrayList<>();
        int checkpoints = 0;
        for (int i = 0; i < 400; i++) {
            String op = "op" + i;
            long s1 = mem.append(op);
            long s2 = file.append(op);
            assertEquals(s2, s1, "the same sequence numbers");
            state = Notes.apply(state, op);
            mem.commit(s1);
            file.commit(s2);
            if (mem.checkpointDue()) {
                assertTrue(file.checkpointDue(), "the same checkpoint rule, at " + op);
                mem.checkpoint(state, s1);
                file.checkpoint(state, s2);
                checkpoints++;
            }
            if (random.nextInt(50) == 0) { // both processes die after a commit: nothing durable lost
                disk.crash();
                file.close();
                mem = InMemoryOperationLog.open(disk, Notes.CODEC, SMALL);
                file = Journal.open(dir, Notes.CODEC, SMALL);
                assertEquals(file.recovered(), mem.recovered(), "the same recovery after " + op);
                assertEquals(state, mem.recovered().state(Notes.EMPTY, Notes::apply));
            }
        }
        assertTrue(checkpoints >= 3, "the run compacted: " + checkpoints);
        file.close();
    }

    @Test
    void aCodecThatCannotReadItsBytesIsReportedNamingTheLog() {
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("server B");
        InMemoryOperationLog<List<String>, String> log = InMemoryOperationLog.open(disk, Notes.CODEC, SMALL);
        log.commit(log.append("x"));
        JournalCodec<List<String>, String> broken = new JournalCodec<>() {
            @Override
            public byte[] encodeOperation(String o) {
                return Notes.CODEC.encodeOperation(o);
            }

            @Override
            public String decodeOperation(byte[] bytes) {
                throw new IllegalArgumentException("unknown tag");
            }

            @Override
            public byte[] encodeCheckpoint(List<String> s) {
                return Notes.CODEC.encodeCheckpoint(s);
            }

            @Override
            public List<String> decodeCheckpoint(byte[] bytes) {
                return Notes.CODEC.decodeCheckpoint(bytes);
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> InMemoryOperationLog.open(disk, broken, SMALL));
        assertTrue(e.getMessage().contains("server B") && e.getMessage().contains("operation 1"), e.getMessage());
    }
}
