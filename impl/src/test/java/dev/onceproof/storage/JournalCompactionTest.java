package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction stopped after each of its write steps (a crash) recovers the state every committed
 * operation made: recovery is checkpoint plus journal, and it never goes backwards.
 */
class JournalCompactionTest {

    @TempDir
    Path root;

    /** Stops the checkpoint at its {@code stopAt}-th write step, as a crash would. */
    static final class Crash extends RuntimeException {
        Crash(Journal.Step step) {
            super("simulated crash after " + step);
        }
    }

    static final class Steps implements Journal.StepHook {
        final int stopAt;
        final List<Journal.Step> seen = new ArrayList<>();

        Steps(int stopAt) {
            this.stopAt = stopAt;
        }

        @Override
        public void after(Journal.Step step, Path file) {
            seen.add(step);
            if (seen.size() == stopAt) {
                throw new Crash(step);
            }
        }
    }

    static List<String> ops(int through) {
        return IntStream.rangeClosed(1, through).mapToObj(i -> "note c" + (i % 3) + "-" + i + " K+").toList();
    }

    /**
     * Three checkpoints: one through the last operation (every older segment deleted), one through
     * an operation in the middle of the current segment (nothing deleted), one that deletes the
     * segment the second kept. Returns how many operations were committed before a crash stopped it.
     */
    static int scenario(Journal<List<String>, String> j) {
        int n = 0;
        int[][] phases = {{30, 30}, {50, 40}, {60, 55}, {65, -1}};
        for (int[] phase : phases) {
            while (n < phase[0]) {
                j.appendAndCommit(ops(n + 1).get(n));
                n++;
            }
            if (phase[1] > 0) {
                try {
                    j.checkpoint(ops(phase[1]), phase[1]);
                } catch (Crash c) {
                    return n;
                }
            }
        }
        return n;
    }

    Journal<List<String>, String> open(Path dir, Journal.Defect defect, Journal.StepHook hook) {
        return Journal.open(dir, Notes.CODEC, Journal.Options.defaults(), TestDisks.NO_FSYNC, defect, hook);
    }

    @Test
    void aCrashAfterEveryWriteStepOfCompactionRecoversTheSameState() throws IOException {
        Steps all = new Steps(0);
        try (Journal<List<String>, String> j = open(root.resolve("whole"), Journal.Defect.NONE, all)) {
            assertThat(scenario(j)).isEqualTo(65);
            assertThat(j.stats().checkpoints()).isEqualTo(3);
        }
        assertThat(all.seen).contains(Journal.Step.values());
        assertThat(segments(root.resolve("whole"))).as("the segment of ops 51..60 and the current one")
                .containsExactly(JournalSegment.name(51), JournalSegment.name(61));
        for (int stop = 1; stop <= all.seen.size(); stop++) {
            Path dir = root.resolve("crash-" + stop);
            Steps steps = new Steps(stop);
            Journal<List<String>, String> j = open(dir, Journal.Defect.NONE, steps);
            int committed = scenario(j);
            j.abandon();
            Journal.Step at = steps.seen.get(stop - 1);
            if (at == Journal.Step.SEGMENT_ROLLED) {
                // The checkpoint's temporary file written, the process dead before the rename.
                Files.write(dir.resolve("checkpoint.tmp"), new byte[] {1, 2, 3});
            }
            try (Journal<List<String>, String> again = open(dir, Journal.Defect.NONE, Journal.StepHook.NONE)) {
                assertThat(Notes.recoveredState(again)).as("crash after step %d, %s", stop, at)
                        .isEqualTo(ops(committed));
                // And it goes on: more operations and a checkpoint through all of them.
                again.appendAndCommit("after");
                List<String> expected = new ArrayList<>(ops(committed));
                expected.add("after");
                again.checkpoint(expected, again.lastSeq());
            }
            try (Journal<List<String>, String> third = open(dir, Journal.Defect.NONE, Journal.StepHook.NONE)) {
                assertThat(Notes.recoveredState(third)).hasSize(committed + 1).endsWith("after");
                assertThat(third.recovered().operations()).as("all in the checkpoint").isEmpty();
            }
        }
    }

    /** Control: deleting covered segments before their checkpoint is written loses them in a crash between. */
    @Test
    void controlDeletingSegmentsBeforeTheCheckpointLosesOperationsInACrash() {
        Path dir = root.resolve("early-delete");
        Steps steps = new Steps(2); // the first checkpoint: rolled, then a segment deleted, then the crash
        Journal<List<String>, String> j = open(dir, Journal.Defect.SEGMENTS_DELETED_BEFORE_CHECKPOINT, steps);
        int committed = scenario(j);
        j.abandon();
        assertThat(steps.seen).containsExactly(Journal.Step.SEGMENT_ROLLED, Journal.Step.SEGMENT_DELETED);
        Throwable t = catchThrowable(() -> open(dir, Journal.Defect.NONE, Journal.StepHook.NONE).close());
        assertThat(t).isInstanceOf(CorruptJournalException.class).hasMessageContaining("operations 1..30 are missing");
        assertThat(committed).isEqualTo(30);
    }

    @Test
    void aCheckpointNeverGoesBackwards() {
        Path dir = root.resolve("backwards");
        try (Journal<List<String>, String> j = open(dir, Journal.Defect.NONE, Journal.StepHook.NONE)) {
            for (String op : ops(10)) {
                j.appendAndCommit(op);
            }
            j.checkpoint(ops(8), 8);
            assertThatThrownBy(() -> j.checkpoint(ops(5), 5)).isInstanceOf(SnapshotBackwardsException.class)
                    .hasMessageContaining("generation 5").hasMessageContaining(dir.toString());
            assertThatThrownBy(() -> j.checkpoint(ops(11), 11)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("appended only up to 10");
            assertThat(j.checkpointSeq()).isEqualTo(8);
        }
        try (Journal<List<String>, String> j = open(dir, Journal.Defect.NONE, Journal.StepHook.NONE)) {
            assertThat(j.recovered().checkpointSeq()).isEqualTo(8);
            assertThat(Notes.recoveredState(j)).isEqualTo(ops(10));
            assertThat(j.lastSeq()).isEqualTo(10);
        }
    }

    @Test
    void aCheckpointIsDueOnceTheJournalOutgrowsTheStateByTheRatio() {
        Path dir = root.resolve("due");
        Journal.Options options = new Journal.Options(Journal.Commit.GROUP, 2.0, 100);
        try (Journal<List<String>, String> j = Journal.open(dir, Notes.CODEC, options, TestDisks.NO_FSYNC,
                Journal.Defect.NONE, Journal.StepHook.NONE)) {
            // No checkpoint yet: the floor of 100 bytes is the base, so due past 200 journal bytes.
            int n = appendUntilDue(j, 0);
            assertThat(recordBytes(0, n - 1)).isLessThanOrEqualTo(200);
            assertThat(recordBytes(0, n)).isGreaterThan(200);
            j.checkpoint(ops(n), n);
            assertThat(j.checkpointDue()).isFalse();
            // Now the checkpoint, larger than the floor, is the base.
            long state = Notes.CODEC.encodeCheckpoint(ops(n)).length;
            assertThat(state).isGreaterThan(100);
            int m = appendUntilDue(j, n);
            assertThat(recordBytes(n, m - 1)).isLessThanOrEqualTo(2 * state);
            assertThat(recordBytes(n, m)).isGreaterThan(2 * state);
        }
    }

    /** Appends after operation {@code from} until a checkpoint is due; returns the last sequence number. */
    static int appendUntilDue(Journal<List<String>, String> j, int from) {
        int n = from;
        while (!j.checkpointDue()) {
            n++;
            j.appendAndCommit(ops(n).get(n - 1));
        }
        return n;
    }

    /** The journal bytes of operations {@code from + 1 .. to}. */
    static long recordBytes(int from, int to) {
        long sum = 0;
        for (int i = from + 1; i <= to; i++) {
            sum += JournalSegment.OVERHEAD + Notes.CODEC.encodeOperation(ops(i).get(i - 1)).length;
        }
        return sum;
    }

    @Test
    void aGapBetweenSegmentsIsCorruption() throws IOException {
        Path dir = root.resolve("gap");
        try (Journal<List<String>, String> j = open(dir, Journal.Defect.NONE, Journal.StepHook.NONE)) {
            for (int i = 1; i <= 25; i++) {
                j.appendAndCommit(ops(i).get(i - 1));
                if (i == 10 || i == 20) {
                    j.checkpoint(ops(i / 2 - 1), i / 2 - 1); // through 4, then 9: covers no segment whole
                }
            }
        }
        List<String> before = segments(dir);
        assertThat(before).containsExactly(JournalSegment.name(1), JournalSegment.name(11), JournalSegment.name(21));
        Files.delete(dir.resolve(before.get(1)));
        assertThatThrownBy(() -> open(dir, Journal.Defect.NONE, Journal.StepHook.NONE))
                .isInstanceOf(CorruptJournalException.class)
                .hasMessageContaining(dir.resolve(before.get(2)).toAbsolutePath().toString())
                .hasMessageContaining("starts at sequence number 21 but " + before.get(0) + " ends at 10");
        assertThat(segments(dir)).as("unchanged").containsExactly(before.get(0), before.get(2));
    }

    @Test
    void aDirectoryOpenElsewhereIsRefusedUntilClosed() {
        Path dir = root.resolve("locked");
        Journal<List<String>, String> first = open(dir, Journal.Defect.NONE, Journal.StepHook.NONE);
        first.appendAndCommit("one");
        assertThatThrownBy(() -> open(dir, Journal.Defect.NONE, Journal.StepHook.NONE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(dir.toAbsolutePath().toString())
                .hasMessageContaining("already open");
        first.close();
        try (Journal<List<String>, String> again = open(dir, Journal.Defect.NONE, Journal.StepHook.NONE)) {
            assertThat(again.recovered().operations()).containsExactly("one");
        }
    }

    static List<String> segments(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("journal-")).sorted().toList();
        }
    }
}
