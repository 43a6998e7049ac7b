package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The store protocol both exactly-once server stores share: recovery is checkpoint plus records,
 * one checkpoint claim at a time, a claim released even when its write fails, and an operation
 * that does not apply named with its log and record. The state is the list of operations applied
 * (operations starting with "!" do not apply), so every expectation is plain.
 */
class JournalStoreTest {

    private static final Journal.Options SMALL = new Journal.Options(Journal.Commit.GROUP, 2.0, 64);

    /**
     * State: the operations applied; a record: one step's operations (never empty: a step without
     * any appends nothing). Both are lists of strings, written as {@link Notes} writes its state.
     */
    private static final JournalCodec<List<String>, List<String>> CODEC = new JournalCodec<>() {
        @Override
        public byte[] encodeOperation(List<String> ops) {
            return Notes.CODEC.encodeCheckpoint(ops);
        }

        @Override
        public List<String> decodeOperation(byte[] bytes) {
            return Notes.CODEC.decodeCheckpoint(bytes);
        }

        @Override
        public byte[] encodeCheckpoint(List<String> state) {
            return Notes.CODEC.encodeCheckpoint(state);
        }

        @Override
        public List<String> decodeCheckpoint(byte[] bytes) {
            return Notes.CODEC.decodeCheckpoint(bytes);
        }
    };

    private static final JournalStore.Recovery<List<String>, String> RECOVERY = JournalStore.recovery(
            List::of, (List<String> s) -> new ArrayList<>(s),
            (ArrayList<String> b, String op) -> {
                if (op.startsWith("!")) {
                    throw new IllegalArgumentException("operation " + op + " is refused");
                }
                b.add(op);
            },
            (ArrayList<String> b) -> List.copyOf(b));

    private static JournalStore<List<String>, String> open(InMemoryOperationLog.Disk disk) {
        return new JournalStore<>(InMemoryOperationLog.open(disk, CODEC, SMALL), RECOVERY);
    }

    @Test
    void recoveryIsTheCheckpointWithTheCommittedRecordsAcrossCrashes() {
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("A");
        JournalStore<List<String>, String> store = open(disk);
        List<String> state = new ArrayList<>();
        int checkpoints = 0;
        for (int i = 0; i < 300; i++) {
            List<String> step = List.of("n" + i + "a", "n" + i + "b");
            state.addAll(step);
            List<String> now = List.copyOf(state);
            long before = store.stats().checkpoints();
            store.save(step, () -> now);
            checkpoints += store.stats().checkpoints() - before;
            if (i % 37 == 36) {
                store.append(List.of("lost")); // appended, never committed: the crash drops it
                disk.crash();
                store = open(disk);
                assertThat(store.load()).as("after the crash at step %d", i).isEqualTo(state);
            }
        }
        assertThat(checkpoints).as("checkpoints written along the way").isGreaterThan(0);
        assertThat(store.append(List.of())).as("a step without operations appends nothing").isEqualTo(store.lastSeq());
    }

    @Test
    void oneClaimAtATimeUntilItsCheckpointIsWritten() {
        JournalStore<List<String>, String> store = open(new InMemoryOperationLog.Disk("A"));
        List<String> state = new ArrayList<>();
        long seq = 0;
        while (!store.claimCheckpoint(seq)) {
            state.add("n" + seq);
            seq = store.append(List.of("n" + seq));
            store.commit(seq);
        }
        long claimed = seq;
        state.add("late");
        long later = store.append(List.of("late"));
        assertThat(store.claimCheckpoint(later)).as("a second claim while the first is unwritten").isFalse();
        store.commit(later);
        store.checkpoint(List.copyOf(state.subList(0, state.size() - 1)), claimed);
        assertThat(store.claimCheckpoint(claimed)).as("a claim through a sequence number already checkpointed").isFalse();
        assertThat(store.stats().checkpoints()).as("the one claim wrote one checkpoint").isEqualTo(1);
    }

    @Test
    void aFailedCheckpointWriteReleasesTheClaim() {
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("A");
        FailingCheckpoints log = new FailingCheckpoints(InMemoryOperationLog.open(disk, CODEC, SMALL));
        JournalStore<List<String>, String> store = new JournalStore<>(log, RECOVERY);
        long seq = 0;
        while (!store.claimCheckpoint(seq)) {
            seq = store.append(List.of("n" + seq));
            store.commit(seq);
        }
        long claimed = seq;
        assertThatThrownBy(() -> store.checkpoint(List.of(), claimed)).hasMessageContaining("disk full");
        log.fail = false;
        long next = store.append(List.of("next"));
        store.commit(next);
        assertThat(store.claimCheckpoint(next)).as("the claim was released by the failed write").isTrue();
    }

    @Test
    void anOperationThatDoesNotApplyIsNamedWithItsLogAndRecord() {
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("server B");
        JournalStore<List<String>, String> store = open(disk);
        store.save(List.of("a"), () -> List.of("a"));
        store.save(List.of("b", "!c"), () -> List.of("a", "b"));
        store.close();
        assertThatThrownBy(() -> open(disk)).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining("server B").hasMessageContaining("record 2").hasMessageContaining("!c");
    }

    /** A log whose checkpoint writes fail while {@link #fail} is set (a full disk), otherwise the log it wraps. */
    private static final class FailingCheckpoints implements OperationLog<List<String>, List<String>> {
        private final OperationLog<List<String>, List<String>> log;
        boolean fail = true;

        FailingCheckpoints(OperationLog<List<String>, List<String>> log) {
            this.log = log;
        }

        @Override
        public Journal.Recovered<List<String>, List<String>> recovered() {
            return log.recovered();
        }

        @Override
        public String where() {
            return log.where();
        }

        @Override
        public long append(List<String> operation) {
            return log.append(operation);
        }

        @Override
        public void commit(long seq) {
            log.commit(seq);
        }

        @Override
        public long lastSeq() {
            return log.lastSeq();
        }

        @Override
        public boolean checkpointDue() {
            return log.checkpointDue();
        }

        @Override
        public void checkpoint(List<String> state, long throughSeq) {
            if (fail) {
                throw new java.io.UncheckedIOException(new java.io.IOException("disk full"));
            }
            log.checkpoint(state, throughSeq);
        }

        @Override
        public Journal.Stats stats() {
            return log.stats();
        }

        @Override
        public void close() {
            log.close();
        }
    }
}
