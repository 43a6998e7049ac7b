package dev.onceproof.storage;

import static dev.onceproof.storage.SharedJournalTest.SHARED;
import static dev.onceproof.storage.SharedJournalTest.SUM;
import static dev.onceproof.storage.SharedJournalTest.VIEWS;
import static dev.onceproof.storage.SharedJournalTest.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store retired from the shared journal is gone for good once {@link SharedJournal#retire}
 * returns, and only then: recovery and the next shared checkpoint no longer have it, so a journal
 * whose stores come and go holds only the live ones (issue 19: state stays bounded over a year of
 * traffic, whatever the client churn). Each check has its control: the defect that breaks it.
 */
class SharedJournalRetireTest {

    @TempDir
    Path dir;

    SharedJournal open(JournalDisk disk, SharedJournal.Defect defect) {
        return SharedJournal.open(dir, SHARED, VIEWS, disk, defect, Journal.StepHook.NONE);
    }

    /** Store "a" with operations 1..n committed, then closed. */
    static void written(SharedJournal shared, String key, int n) {
        OperationLog<long[], Long> v = shared.view(key, SUM);
        for (long i = 1; i <= n; i++) {
            v.commit(v.append(i));
        }
        v.close();
    }

    /** What a reopened journal holds of {@code key}: its state (count, sum). */
    static long[] reopened(SharedJournal shared, String key) {
        OperationLog<long[], Long> v = shared.view(key, SUM);
        long[] s = state(v.recovered());
        v.close();
        return s;
    }

    /** Retire, reopen: what {@code defect} leaves of a retired store with three operations. */
    long[] retireThenReopen(SharedJournal.Defect defect) {
        try (SharedJournal shared = open(TestDisks.NO_FSYNC, defect)) {
            written(shared, "a", 3);
            written(shared, "b", 2);
            assertThat(shared.retire("a")).isTrue();
            assertThat(shared.images()).as("the image left memory at once").isEqualTo(1);
        }
        try (SharedJournal again = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            assertThat(reopened(again, "b")).as("the other store is untouched").containsExactly(2, 3);
            return reopened(again, "a");
        }
    }

    @Test
    void aRetiredStoreIsGoneAfterReopenAndItsKeyStartsAfresh() {
        assertThat(retireThenReopen(SharedJournal.Defect.NONE)).containsExactly(0, 0);
        try (SharedJournal shared = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            OperationLog<long[], Long> a = shared.view("a", SUM);
            assertThat(a.append(40L)).as("a new store of the key numbers from 1").isEqualTo(1);
            a.close();
        }
        try (SharedJournal shared = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            assertThat(reopened(shared, "a")).containsExactly(1, 40);
        }
    }

    @Test
    void controlARetireOnlyInMemoryComesBackAfterReopen() {
        assertThat(retireThenReopen(SharedJournal.Defect.RETIRE_NOT_JOURNALED)).containsExactly(3, 6);
    }

    /** Retire, power loss: what {@code defect} leaves of the retired store. */
    long[] retireThenPowerLoss(SharedJournal.Defect defect) throws IOException {
        TestDisks.PowerLoss disk = new TestDisks.PowerLoss();
        SharedJournal shared = open(disk, defect);
        written(shared, "a", 3);
        assertThat(shared.retire("a")).isTrue();
        shared.abandon();
        disk.powerLoss(dir);
        try (SharedJournal again = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            return reopened(again, "a");
        }
    }

    @Test
    void aRetireIsDurableWhenItReturns() throws IOException {
        assertThat(retireThenPowerLoss(SharedJournal.Defect.NONE)).containsExactly(0, 0);
    }

    @Test
    void controlARetireReturningBeforeItsFsyncIsUndoneByAPowerLoss() throws IOException {
        assertThat(retireThenPowerLoss(SharedJournal.Defect.RETIRE_RETURNS_BEFORE_DURABLE)).containsExactly(3, 6);
    }

    /**
     * "a" is in a shared checkpoint, then retired; "b" writes on until the next shared checkpoint,
     * which a crash stops after its {@code stopAt}-th write step (0: never). Returns what the
     * reopened journal holds of "a", having checked "b" lost nothing.
     */
    long[] retireThenCrashInTheCheckpoint(SharedJournal.Defect defect, int stopAt, List<Journal.Step> seen) {
        ArmedSteps steps = new ArmedSteps(stopAt);
        SharedJournal shared = SharedJournal.open(dir, SHARED, VIEWS, TestDisks.NO_FSYNC, defect, steps);
        written(shared, "a", 3);
        OperationLog<long[], Long> b = shared.view("b", SUM);
        long[] model = new long[2];
        for (long i = 1; shared.checkpointSeq() == 0; i++) {
            b.commit(b.append(i));
            model[0]++;
            model[1] += i;
        }
        assertThat(shared.retire("a")).isTrue();
        steps.armed = true;
        long first = shared.checkpointSeq();
        try {
            for (long i = 1; shared.checkpointSeq() == first; i++) {
                long seq = b.append(i);
                model[0]++;
                model[1] += i;
                b.commit(seq);
            }
        } catch (Crash crashed) {
            // b's last operation was committed before its commit ran the checkpoint that crashed
        }
        seen.addAll(steps.seen);
        shared.abandon();
        try (SharedJournal again = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            assertThat(reopened(again, "b")).as("b after a crash at step %d", stopAt).containsExactly(model);
            int held = again.images();
            long[] a = reopened(again, "a");
            assertThat(held).as("images held").isEqualTo(a[0] == 0 ? 1 : 2);
            return a;
        }
    }

    /** Stops a crash at the {@code stopAt}-th checkpoint write step once armed, as a crash would. */
    static final class ArmedSteps implements Journal.StepHook {
        final int stopAt;
        final List<Journal.Step> seen = new ArrayList<>();
        volatile boolean armed;

        ArmedSteps(int stopAt) {
            this.stopAt = stopAt;
        }

        @Override
        public void after(Journal.Step step, Path file) {
            if (armed) {
                seen.add(step);
                if (seen.size() == stopAt) {
                    throw new Crash(step);
                }
            }
        }
    }

    static final class Crash extends RuntimeException {
        Crash(Journal.Step step) {
            super("simulated crash after " + step);
        }
    }

    @Test
    void aCrashAfterEveryWriteStepOfTheNextCheckpointRecoversWithoutTheRetiredStore() throws IOException {
        List<Journal.Step> all = new ArrayList<>();
        retireThenCrashInTheCheckpoint(SharedJournal.Defect.NONE, 0, all);
        assertThat(all).as("the checkpoint after the retire ran every step").contains(Journal.Step.values());
        for (int stopAt = 1; stopAt <= all.size(); stopAt++) {
            clear();
            List<Journal.Step> seen = new ArrayList<>();
            assertThat(retireThenCrashInTheCheckpoint(SharedJournal.Defect.NONE, stopAt, seen))
                    .as("a after a crash at %s", seen).containsExactly(0, 0);
        }
        clear();
        assertThat(retireThenCrashInTheCheckpoint(SharedJournal.Defect.NONE, 0, all)).containsExactly(0, 0);
    }

    @Test
    void controlARetireOnlyInMemoryComesBackWhenTheCrashPrecedesTheCheckpoint() {
        List<Journal.Step> seen = new ArrayList<>();
        assertThat(retireThenCrashInTheCheckpoint(SharedJournal.Defect.RETIRE_NOT_JOURNALED, 1, seen))
                .as("a after a crash at %s", seen).containsExactly(3, 6);
    }

    @Test
    void controlASharedCheckpointBetweenTheRetireRecordAndTheImagesRemovalBringsTheStoreBack() {
        SharedJournal shared = open(TestDisks.NO_FSYNC, SharedJournal.Defect.RETIRE_RECORD_APART_FROM_REMOVAL);
        written(shared, "a", 3);
        OperationLog<long[], Long> b = shared.view("b", SUM);
        long before = shared.checkpointSeq();
        shared.betweenRetireSteps = () -> {
            // Another thread's commit runs the shared checkpoint: it covers the retire record and
            // still copies a's image.
            for (long i = 1; shared.checkpointSeq() == before; i++) {
                b.commit(b.append(i));
            }
        };
        assertThat(shared.retire("a")).isTrue();
        shared.abandon();
        try (SharedJournal again = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            assertThat(reopened(again, "a")).containsExactly(3, 6);
        }
    }

    @Test
    void aTornRetireRecordKeepsTheStoreAndAWholeOneDropsIt() throws IOException {
        long before;
        try (SharedJournal shared = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            written(shared, "a", 3);
            before = Files.size(onlySegment());
            assertThat(shared.retire("a")).isTrue();
        }
        Path segment = onlySegment();
        byte[] whole = Files.readAllBytes(segment);
        assertThat((long) whole.length).as("the retire record is the last").isGreaterThan(before + JournalSegment.OVERHEAD);
        for (int cut = (int) before; cut <= whole.length; cut++) {
            Files.write(segment, Arrays.copyOf(whole, cut));
            try (SharedJournal again = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
                assertThat(reopened(again, "a")).as("cut at %d of %d", cut, whole.length)
                        .containsExactly(cut == whole.length ? new long[] {0, 0} : new long[] {3, 6});
            }
        }
    }

    /**
     * {@code n} clients in turn: each opens its store, writes 20 operations (with the store's own
     * checkpoints when due), closes it and, if {@code retire}, retires it. Returns the most images
     * the journal held, the largest shared checkpoint file and the largest directory, in bytes.
     */
    long[] churn(int n, boolean retire) throws IOException {
        long maxImages = 0;
        long maxCheckpoint = 0;
        long maxBytes = 0;
        try (SharedJournal shared = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            for (int c = 0; c < n; c++) {
                String key = "client-" + c;
                OperationLog<long[], Long> v = shared.view(key, SUM);
                long[] s = new long[2];
                for (long i = 1; i <= 20; i++) {
                    long seq = v.append(i);
                    s[0]++;
                    s[1] += i;
                    v.commit(seq);
                    if (v.checkpointDue()) {
                        v.checkpoint(s.clone(), seq);
                    }
                }
                v.close();
                if (retire) {
                    assertThat(shared.retire(key)).isTrue();
                }
                maxImages = Math.max(maxImages, shared.images());
                Path cp = dir.resolve("checkpoint");
                if (Files.exists(cp)) {
                    maxCheckpoint = Math.max(maxCheckpoint, Files.size(cp));
                }
                maxBytes = Math.max(maxBytes, bytes());
            }
            assertThat(shared.checkpointSeq()).as("the shared journal was compacted").isPositive();
        }
        return new long[] {maxImages, maxCheckpoint, maxBytes};
    }

    private long bytes() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    @Test
    void storesOpenedUsedAndRetiredInTurnLeaveTheJournalBounded() throws IOException {
        long[] bounded = churn(1_000, true);
        assertThat(bounded[0]).as("images held").isZero();
        // The checkpoint holds at most the one store being written: its header and a few records.
        assertThat(bounded[1]).as("largest checkpoint, bytes").isLessThan(512);
        // The journal is compacted once it outgrows twice the floor (2 KiB): a few segments of that.
        assertThat(bounded[2]).as("largest directory, bytes").isLessThan(16 << 10);
    }

    @Test
    void controlWithoutRetireTheJournalHoldsEveryStoreItEverHad() throws IOException {
        long[] grown = churn(1_000, false);
        assertThat(grown[0]).as("images held").isEqualTo(1_000);
        assertThat(grown[1]).as("largest checkpoint, bytes").isGreaterThan(10_000);
        assertThat(grown[2]).as("largest directory, bytes").isGreaterThan(16 << 10);
    }

    /**
     * Threads open, write, close and retire stores of their own (keeping every third), while the
     * shared checkpoints their commits trigger copy the images concurrently; then the process dies.
     * Returns the keys kept, with their states, and asserts nothing: the callers compare.
     */
    Map<String, long[]> concurrentChurn(SharedJournal shared, int threads, int each) throws Exception {
        Map<String, long[]> kept = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int c = 1; c <= each; c++) {
                        String key = "t" + thread + "-" + c;
                        OperationLog<long[], Long> v = shared.view(key, SUM);
                        long[] s = new long[2];
                        for (long i = 1; i <= 1 + (c % 7); i++) {
                            long seq = v.append(i);
                            s[0]++;
                            s[1] += i;
                            v.commit(seq);
                        }
                        v.close();
                        if (c % 3 == 0) {
                            kept.put(key, s);
                        } else if (!shared.retire(key)) {
                            throw new AssertionError(key + " was not held when retired");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(shared.checkpointSeq()).as("shared checkpoints ran meanwhile").isPositive();
        shared.abandon();
        return kept;
    }

    @Test
    void storesRetiredWhileCheckpointsRunAreGoneAndTheKeptOnesWhole() throws Exception {
        // each = 100, ending on a retire: 4 x 33 stores kept.
        Map<String, long[]> kept = concurrentChurn(open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE), 4, 100);
        try (SharedJournal again = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            assertThat(again.images()).as("stores held after reopen").isEqualTo(kept.size());
            kept.forEach((key, s) -> assertThat(reopened(again, key)).as(key).containsExactly(s));
        }
    }

    @Test
    void controlRetiresOnlyInMemoryComeBackAfterTheLastCheckpoint() throws Exception {
        // Each thread's last act is a retire, which commits nothing under this defect: no checkpoint
        // follows the last one, so that store at least is back.
        Map<String, long[]> kept = concurrentChurn(open(TestDisks.NO_FSYNC, SharedJournal.Defect.RETIRE_NOT_JOURNALED),
                4, 100);
        try (SharedJournal again = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            assertThat(again.images()).as("stores held after reopen").isGreaterThan(kept.size());
        }
    }

    @Test
    void aClosedStoreTakesNoMoreOperations() {
        try (SharedJournal shared = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            OperationLog<long[], Long> a = shared.view("a", SUM);
            a.commit(a.append(1L));
            a.close();
            assertThatThrownBy(() -> a.append(2L)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("store a").hasMessageContaining("closed");
            assertThatThrownBy(() -> a.checkpoint(new long[] {1, 1}, 1)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
        }
    }

    @Test
    void controlAClosedStoreWritingAfterItsRetireCorruptsTheJournal() {
        try (SharedJournal shared = open(TestDisks.NO_FSYNC, SharedJournal.Defect.CLOSED_VIEW_APPENDS)) {
            OperationLog<long[], Long> a = shared.view("a", SUM);
            a.commit(a.append(1L));
            a.close();
            shared.retire("a");
            a.commit(a.append(2L));
        }
        assertThatThrownBy(() -> open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE))
                .isInstanceOf(CorruptJournalException.class).hasMessageContaining("operation 2 of a")
                .hasMessageContaining("is 0");
    }

    @Test
    void anOpenStoreIsNotRetiredAndAnUnknownOneIsNothingToDo() {
        try (SharedJournal shared = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            OperationLog<long[], Long> a = shared.view("a", SUM);
            a.commit(a.append(1L));
            assertThatThrownBy(() -> shared.retire("a")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("store a").hasMessageContaining("is open");
            assertThat(shared.retire("nobody")).isFalse();
            a.close();
            // A store opened and closed without an operation has no record and is in no checkpoint.
            shared.view("empty", SUM).close();
            assertThat(shared.retire("empty")).isTrue();
            assertThat(shared.retire("a")).isTrue();
            assertThat(shared.retire("a")).as("retired already").isFalse();
        }
        try (SharedJournal again = open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE)) {
            assertThat(again.images()).isZero();
        }
    }

    @Test
    void aRetireNamingAnotherLastOperationIsCorruption() {
        try (Journal<Map<String, ?>, SharedJournal.Entry> raw = openRaw()) {
            raw.appendAndCommit(new SharedJournal.Tagged("a", 1, SUM.encodeOperation(1L)));
            raw.appendAndCommit(new SharedJournal.Tagged("a", 2, SUM.encodeOperation(2L)));
            raw.appendAndCommit(new SharedJournal.Retired("a", 1));
        }
        assertThatThrownBy(() -> open(TestDisks.NO_FSYNC, SharedJournal.Defect.NONE))
                .isInstanceOf(CorruptJournalException.class).hasMessageContaining("record 3 retires a after its operation 1")
                .hasMessageContaining("is 2");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Journal<Map<String, ?>, SharedJournal.Entry> openRaw() {
        return (Journal) Journal.open(dir, SharedJournalCodec.CODEC, SHARED);
    }

    private Path onlySegment() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> segments = s.filter(f -> JournalSegment.first(f).isPresent()).toList();
            assertThat(segments).hasSize(1);
            return segments.get(0);
        }
    }

    private void clear() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.toList()) {
                Files.delete(f);
            }
        }
    }
}
