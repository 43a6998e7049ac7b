package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal shared by many stores keeps each store's contract (what a commit makes durable, what
 * recovery gives) while one fsync covers the steps of all of them, and stays bounded on disk.
 */
class SharedJournalTest {

    @TempDir
    Path dir;

    /** A bounded state: how many operations and their sum, as "n:sum"; an operation is a number. */
    static final JournalCodec<long[], Long> SUM = new JournalCodec<>() {
        @Override
        public byte[] encodeOperation(Long op) {
            return Long.toString(op).getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public Long decodeOperation(byte[] bytes) {
            return Long.parseLong(new String(bytes, StandardCharsets.US_ASCII));
        }

        @Override
        public byte[] encodeCheckpoint(long[] s) {
            return (s[0] + ":" + s[1]).getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public long[] decodeCheckpoint(byte[] bytes) {
            String[] p = new String(bytes, StandardCharsets.US_ASCII).split(":");
            return new long[] {Long.parseLong(p[0]), Long.parseLong(p[1])};
        }
    };

    static final Journal.Options SHARED = new Journal.Options(Journal.Commit.GROUP, 2.0, 2_048);
    static final Journal.Options VIEWS = new Journal.Options(Journal.Commit.GROUP, 2.0, 64);

    static long[] state(Journal.Recovered<long[], Long> r) {
        long[] s = r.checkpoint().map(long[]::clone).orElse(new long[2]);
        for (long op : r.operations()) {
            s[0]++;
            s[1] += op;
        }
        return s;
    }

    @Test
    void oneFsyncCoversTheStepsOfEveryStore() {
        try (SharedJournal shared = SharedJournal.open(dir, SHARED, VIEWS)) {
            OperationLog<long[], Long> a = shared.view("a", SUM);
            OperationLog<long[], Long> b = shared.view("b", SUM);
            long sa = a.append(1L);
            long sb = b.append(2L);
            assertThat(sa).isEqualTo(1);
            assertThat(sb).as("each store numbers its own operations").isEqualTo(1);
            b.commit(sb);
            long forces = shared.stats().forces();
            a.commit(sa);
            assertThat(shared.stats().forces()).as("a's step was in b's fsync").isEqualTo(forces);
        }
    }

    @Test
    void eachStoreRecoversItsOwnOperationsOnARandomRunAndTheDiskStaysBounded() throws Exception {
        Random random = new Random(11);
        Map<String, long[]> model = new HashMap<>();
        // Files, records and checkpoints as on a real disk, without the fsyncs' time.
        SharedJournal shared = SharedJournal.open(dir, SHARED, VIEWS, TestDisks.NO_FSYNC);
        Map<String, OperationLog<long[], Long>> views = new HashMap<>();
        List<String> keys = List.of("c1", "c2", "c3", "c4");
        for (String k : keys) {
            views.put(k, shared.view(k, SUM));
            model.put(k, new long[2]);
        }
        long maxBytes = 0;
        for (int i = 0; i < 20_000; i++) {
            String k = keys.get(random.nextInt(keys.size()));
            OperationLog<long[], Long> v = views.get(k);
            long op = random.nextInt(1000);
            long seq = v.append(op);
            long[] s = model.get(k);
            s[0]++;
            s[1] += op;
            v.commit(seq);
            if (v.checkpointDue()) {
                v.checkpoint(s.clone(), seq);
            }
            if (i % 2_000 == 1_999) {
                // The process dies after a commit (nothing durable lost) and opens the journal again.
                shared.abandon();
                shared = SharedJournal.open(dir, SHARED, VIEWS, TestDisks.NO_FSYNC);
                for (String key : keys) {
                    views.put(key, shared.view(key, SUM));
                    assertThat(state(views.get(key).recovered())).as(key + " after " + i).containsExactly(model.get(key));
                    assertThat(views.get(key).lastSeq()).isEqualTo(model.get(key)[0]);
                }
            }
            if (i % 50 == 0) {
                maxBytes = Math.max(maxBytes, bytes(dir));
            }
        }
        assertThat(shared.checkpointSeq()).as("the shared journal was compacted").isPositive();
        // 20,000 records of about 40 bytes each are 800 KB; compaction keeps a few times the floor.
        assertThat(maxBytes).isLessThan(64 << 10);
        shared.close();
    }

    @Test
    void aPowerLossKeepsEveryCommittedOperationOfEveryStore() throws Exception {
        TestDisks.PowerLoss disk = new TestDisks.PowerLoss();
        SharedJournal shared = SharedJournal.open(dir, SHARED, VIEWS, disk);
        OperationLog<long[], Long> a = shared.view("a", SUM);
        OperationLog<long[], Long> b = shared.view("b", SUM);
        a.commit(a.append(5L));
        b.append(7L); // never committed: lost by the power loss
        shared.abandon();
        disk.powerLoss(dir);
        try (SharedJournal again = SharedJournal.open(dir, SHARED, VIEWS)) {
            assertThat(state(again.view("a", SUM).recovered())).containsExactly(1, 5);
            assertThat(state(again.view("b", SUM).recovered())).containsExactly(0, 0);
        }
    }

    @Test
    void aStoreHasOneWriterAndAGapInItsNumbersIsCorruption() {
        try (SharedJournal shared = SharedJournal.open(dir, SHARED, VIEWS)) {
            shared.view("a", SUM);
            assertThatThrownBy(() -> shared.view("a", SUM)).hasMessageContaining("store a").hasMessageContaining("already open");
        }
        Path other = dir.resolve("gap");
        try (Journal<Map<String, ?>, SharedJournal.Entry> raw = openRaw(other)) {
            raw.appendAndCommit(new SharedJournal.Tagged("a", 1, SUM.encodeOperation(1L)));
            raw.appendAndCommit(new SharedJournal.Tagged("a", 3, SUM.encodeOperation(3L)));
        }
        assertThatThrownBy(() -> SharedJournal.open(other, SHARED, VIEWS)).isInstanceOf(CorruptJournalException.class)
                .hasMessageContaining("operation 3 of a").hasMessageContaining("is 1");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Journal<Map<String, ?>, SharedJournal.Entry> openRaw(Path d) {
        return (Journal) Journal.open(d, SharedJournalCodec.CODEC, SHARED);
    }

    private static long bytes(Path d) throws Exception {
        try (var files = Files.walk(d)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }
}
