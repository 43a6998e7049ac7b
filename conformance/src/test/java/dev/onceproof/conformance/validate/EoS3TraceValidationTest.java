package dev.onceproof.conformance.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.crash.EoIdListCrashExperiment;
import dev.onceproof.conformance.crash.EoIdListCrashReport;
import dev.onceproof.exactlyonce.S3Seams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for Strategy 3: the step logs of real runs are behaviours of
 * ExactlyOnceS3MsgRound (specs/exactlyonce/TraceExactlyOnceS3.tla): a seeded world of two
 * ConcurrentS3Servers and the client made on the spot, and the stored regression logs. And the check
 * can fail: cores without the replication round (the seam), a second delivery inserted by hand and a
 * SendNote removed by hand are each rejected at the line where they go wrong.
 */
class EoS3TraceValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;
    static final Path STORED = TestValidators.REPO.root().resolve("conformance/src/test/resources/validate/exactlyonce");
    static final int STEPS = 120;

    @TempDir
    Path dir;

    @Test
    void aFreshSeededWorldIsABehaviourOfTheSpec() throws Exception {
        long seed = System.nanoTime();
        Path log = EoS3Run.run(dir, seed, STEPS, c -> c);
        Validation v = VALIDATOR.validate(List.of(log));
        System.out.println("Strategy 3 world, seed " + seed + ": " + v.summary());
        assertThat(v.accepted()).as("seed %d\n%s\n%s", seed, v.report(), Files.readString(log)).isTrue();
    }

    /**
     * The Strategy 3 SIGKILL run (the client JVM killed three times, R of two slots filling up, the
     * driver as server A): its logs, the driver's and one per client incarnation, one cursor each
     * (the incarnations joined with the kills), are a behaviour of the spec.
     */
    @Test
    void aSigkillRunOfTheClientIsABehaviourOfTheSpec() throws Exception {
        long seed = System.nanoTime();
        Path logs = Files.createDirectory(dir.resolve("logs"));
        EoIdListCrashReport report = new EoIdListCrashExperiment(sigkillConfig(seed, 3), dir, System.out)
                .logSteps(logs).run();
        assertThat(report.safe()).as(report.toString()).isTrue();
        List<Path> files;
        try (var list = Files.list(logs)) {
            files = list.sorted().toList();
        }
        Validation v = VALIDATOR.validate(files);
        System.out.println("Strategy 3 SIGKILL run, seed " + seed + ": " + v.summary());
        assertThat(v.accepted()).as("seed %d\n%s", seed, v.report()).isTrue();
    }

    /**
     * The SIGKILL run's own control, with logs: a client that acknowledges before it records
     * ({@code --ack-first}, the seam EoCrashRecoveryTest uses) loses acknowledged notes when a kill
     * lands between the two. Server A's log then has a ReceiveAck of a note whose receipt no client
     * line (written after the durable write) shows, and TLC rejects it there: no ack of that note
     * was ever sent in any behaviour the other logs allow.
     */
    @Test
    void aClientAcknowledgingBeforeRecordingIsRejectedAtTheServersReceiveAck() throws Exception {
        Path logs = Files.createDirectory(dir.resolve("logs"));
        EoIdListCrashReport report = new EoIdListCrashExperiment(sigkillConfig(3, 8).withAckFirst(8), dir, System.out)
                .logSteps(logs).run();
        assertThat(report.ackedNotProcessed()).as("the kills must land between the ack and the record").isNotEmpty();
        List<Path> files;
        try (var list = Files.list(logs)) {
            files = list.sorted().toList();
        }
        Validation v = VALIDATOR.validate(files);
        System.out.println("Control, the Strategy 3 client acknowledging before it records:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).anySatisfy(t -> {
            assertThat(t.process()).isEqualTo("A");
            assertThat(t.text()).contains("\"action\":\"ReceiveAck\"");
            assertThat(report.ackedNotProcessed()).anyMatch(id -> t.text().contains("\"note\":\"" + id + "\""));
        });
    }

    /** Short up times and R of two slots: the client refuses, is purged and is killed within seconds. */
    static EoIdListCrashExperiment.Config sigkillConfig(long seed, int crashes) {
        return new EoIdListCrashExperiment.Config(crashes, seed, 40, 120, 2, false, 15);
    }

    @Test
    void theStoredRegressionLogsAreAccepted() {
        List<List<Path>> runs = StoredLogs.runs(STORED);
        assertThat(runs).isNotEmpty();
        for (List<Path> run : runs) {
            Validation v = VALIDATOR.validate(run);
            System.out.println("stored " + run + ": " + v.summary());
            assertThat(v.accepted()).as(v.report()).isTrue();
        }
    }

    /**
     * Without the acknowledged round a note is offered as soon as it is in the server's K, before
     * every server stored it; the spec's session sends only notes whose commit it holds, so TLC
     * rejects the first SendNote of an uncommitted note.
     */
    @Test
    void coresWithoutTheReplicationRoundAreRejectedAtTheirFirstEarlyOffer() {
        Path log = EoS3Run.run(dir, 1, STEPS, S3Seams.withoutReplicationRound());
        Validation v = VALIDATOR.validate(List.of(log));
        System.out.println("Control, S3Server without the replication round (seed 1):\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.text()).contains("\"action\":\"SendNote\"");
            assertThat(v.rejection().state().toString()).doesNotContain("ready |-> [A |-> {\"n1\"");
        });
    }

    @Test
    void aSecondDeliveryInsertedByHandIsRejectedThere() {
        StepLogFile log = StepLogFile.read(STORED.resolve("world-seed1.jsonl"));
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        int first = ScmpTraceValidationTest.indexOf(steps, "ReceiveNote", "accepted");
        steps.add(first + 1, steps.get(first).deepCopy());
        Validation v = VALIDATOR.validateLogs(List.of(log.withSteps(steps)));
        System.out.println("Control, the client's processing of line " + (first + 2) + " inserted again:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        int inserted = first + 2;
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> assertThat(t.index()).isEqualTo(inserted));
    }

    @Test
    void aSendNoteRemovedByHandIsRejectedWhereItIsMissed() {
        StepLogFile log = StepLogFile.read(STORED.resolve("world-seed1.jsonl"));
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        int at = ScmpTraceValidationTest.indexOf(steps, "SendNote", null);
        ObjectNode send = steps.remove(at);
        Validation v = VALIDATOR.validateLogs(List.of(log.withSteps(steps)));
        System.out.println("Control, the first SendNote removed (" + send + "):\n" + v.report());
        assertThat(v.accepted()).isFalse();
        // The Deliver's next step: the client's receipt of that note, or the server's ack or timeout.
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.index()).isGreaterThan(at);
            assertThat(t.text()).contains("\"note\":" + send.get("note"));
        });
    }
}
