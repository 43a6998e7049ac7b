package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random schedules of appends, commits, checkpoints and power losses: after every power loss
 * the recovered state is the operations in the order they were appended, cut no earlier than the
 * last committed one. Recovery never goes backwards past a commit, and never invents or reorders.
 */
class JournalRandomCrashTest {

    /** Each schedule's checkpoints take real fsyncs (FileSnapshotStore's): about 0.1 s a seed here. */
    static final int SEEDS = 30;

    @TempDir
    Path root;

    /** The first violation a schedule from {@code seed} runs into, or null. */
    String run(long seed, Journal.Defect defect) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        Path dir = root.resolve("seed-" + seed + "-" + defect);
        TestDisks.PowerLoss disk = new TestDisks.PowerLoss();
        Journal.Options options = new Journal.Options(Journal.Commit.GROUP, 1.0, 64);
        Journal<List<String>, String> j = Journal.open(dir, Notes.CODEC, options, disk, defect, Journal.StepHook.NONE);
        List<String> appended = new ArrayList<>();
        int committed = 0;
        int next = 0;
        for (int step = 0; step < 60; step++) {
            int choice = random.nextInt(10);
            if (choice < 5) {
                String op = "op-" + next++;
                j.append(op);
                appended.add(op);
            } else if (choice < 7) {
                j.commit();
                committed = appended.size();
            } else if (choice < 8 && appended.size() > j.checkpointSeq()) {
                int through = (int) j.checkpointSeq() + 1 + random.nextInt(appended.size() - (int) j.checkpointSeq());
                j.checkpoint(List.copyOf(appended.subList(0, through)), through);
                committed = Math.max(committed, through);
            } else if (choice < 9) {
                j.abandon();
                disk.powerLoss(dir);
                try {
                    j = Journal.open(dir, Notes.CODEC, options, disk, defect, Journal.StepHook.NONE);
                } catch (CorruptJournalException e) {
                    return "seed " + seed + " step " + step + ": " + e.getMessage();
                }
                List<String> recovered = Notes.recoveredState(j);
                if (recovered.size() < committed || !recovered.equals(appended.subList(0, recovered.size()))) {
                    j.abandon();
                    return "seed " + seed + " step " + step + ": recovered " + recovered + " after appending "
                            + appended + " and committing " + committed;
                }
                appended = new ArrayList<>(recovered);
                committed = recovered.size();
            }
        }
        j.abandon();
        return null;
    }

    @Test
    void recoveryKeepsEveryCommittedOperationInOrderAcrossRandomPowerLosses() throws IOException {
        for (long seed = 1; seed <= SEEDS; seed++) {
            assertThat(run(seed, Journal.Defect.NONE)).isNull();
        }
    }

    /** Control: the same schedules catch a journal that acknowledges without its fsync. */
    @Test
    void controlTheSameSchedulesCatchAnAcknowledgementWithoutFsync() throws IOException {
        List<String> violations = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS && violations.isEmpty(); seed++) {
            String v = run(seed, Journal.Defect.ACKNOWLEDGED_WITHOUT_FORCE);
            if (v != null) {
                violations.add(v);
            }
        }
        assertThat(violations).isNotEmpty();
    }
}
