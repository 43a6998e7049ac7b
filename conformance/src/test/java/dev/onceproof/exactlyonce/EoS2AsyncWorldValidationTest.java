package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.TestDepth;
import dev.onceproof.conformance.validate.StepLogFile;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.steplog.StepLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for Strategy 2 with the cores' asynchronous replicas (issue 20 item 6, issue 21):
 * {@link EoWorld#s2WithReplicasAsMessages} runs S2Server and S2Client cores (W = 2, so numbers are
 * reused) with every replica a message on the world's lossy, duplicating, reordering network and
 * each number settling T_e after its issue on the world's clock, and TLC accepts its log as a
 * behaviour of ExactlyOnceS2MsgAsync with the fix, Settle = TRUE
 * (specs/exactlyonce/TraceExactlyOnceS2Async.tla). The controls: cores without the settle rule
 * (S2Server's settleWait seam, the cores before the fix) are rejected at the sync reply whose
 * confirmation they count too early; a network whose replicas outlive the settle wait by a tick at
 * the SettleNumber it makes false; a second processing inserted by hand and a SendNote removed by
 * hand are rejected where they go wrong.
 */
class EoS2AsyncWorldValidationTest {

    static final long TE = 3;
    static final Path STORED = EoS1WorldValidationTest.STORED.resolve("s2-async-world-seed1.jsonl");

    @TempDir
    Path dir;

    /** Seeds 1-3 in the build (each about a second of TLC), 1-40 under -Pdeep. */
    @Test
    void seededSchedulesWithReplicasAsMessagesAreBehavioursOfTheSpec() throws Exception {
        int seeds = TestDepth.pick(3, 40);
        StringBuilder all = new StringBuilder();
        for (int seed = 1; seed <= seeds; seed++) {
            Path log = run(dir.resolve("s2-async-world-" + seed + ".jsonl"), seed, w -> w);
            Validation v = TestValidators.IN_JVM.validate(List.of(log));
            System.out.println("EoWorld, Strategy 2, replicas as messages, seed " + seed + ": " + v.summary());
            assertThat(v.accepted()).as("seed %d\n%s", seed, v.report()).isTrue();
            all.append(Files.readString(log));
        }
        // What the runs must cover for the acceptance to say something: replicas taken, dropped
        // and settling, reuse, and syncs. Over the seeds together, not each: under -Pdeep some
        // seeds (23, 38) lose every replica before it arrives, which is a schedule, not a fault.
        assertThat(all.toString()).contains("\"action\":\"ReceiveReplica\"",
                "\"action\":\"LoseReplica\"", "\"action\":\"SettleNumber\"", "\"inc\":1",
                "\"action\":\"ReceiveSyncReply\"");
    }

    /**
     * TLC's counterexample of the cores before the fix (exactlyonce-s2msg-async-late-replica), as a
     * schedule: A delivers A.0 while its replica to B is held back, A's sync request (sent before
     * A.0 settled) tells B A.0 removed, B's reply comes back, then the replica reaches B. The real
     * core does not count that reply and does not reuse A.0's successor; the seam's counts it, and
     * the spec refuses that ReceiveSyncReply line: its conf holds a number the spec's does not.
     * The seam's world then shows the harm: A.1 created on that confirmation and A.0 processed twice.
     */
    @Test
    void serversWithoutTheSettleRuleAreRejectedAtTheReplyTheyCountTooEarly() throws Exception {
        EoWorld real = EoWorld.s2WithReplicasAsMessages(2, 2, TE);
        Path good = logged(dir.resolve("settles.jsonl"), real, this::lateReplica);
        Validation ok = TestValidators.IN_JVM.validate(List.of(good));
        assertThat(ok.accepted()).as("the same schedule over the real cores\n%s", ok.report()).isTrue();
        assertThat(real.created).as("the real core does not reuse on that reply").hasSize(1);

        EoWorld broken = EoWorld.s2WithReplicasAsMessages(2, 2, TE).withoutS2SettleWait();
        Path log = logged(dir.resolve("no-settle.jsonl"), broken, this::lateReplica);
        assertThat(broken.created).as("A.1 created on the early confirmation").hasSize(2);
        assertThat(broken.duplicates()).as("A.0 processed twice").hasSize(1);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, EoWorld over S2Servers without the settle rule:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        List<ObjectNode> steps = StepLogFile.read(log).steps();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            ObjectNode line = steps.get(t.index() - 1);
            assertThat(line.get("action").asText()).isEqualTo("ReceiveSyncReply");
            assertThat(line.get("server").asText()).isEqualTo("A");
            // 0 from the request started before A.0 settled (1, never issued, is confirmed by its absence)
            assertThat(line.get("conf").toString()).isEqualTo("[0,1]");
        });
    }

    /**
     * The SettleNumber line is checked against the network: on a network that keeps a message one
     * tick past the specs' lifetime (a lifetime of T_e + 1: a replica may arrive at age T_e), S2Server
     * counts A.0 settled at its issue + T_e while A.0's replica to B may still arrive, and the spec
     * refuses that line (no replica of the number may be left). Seed 8 of the seeded schedule.
     */
    @Test
    void aReplicaOutlivingTheSettleWaitIsRejectedAtTheSettle() {
        Path log = logged(dir.resolve("long-lifetime.jsonl"), EoWorld.s2WithReplicasAsMessages(2, 2, TE, TE + 1),
                world -> EoWorldValidationTest.schedule(world, 8));
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, EoWorld whose messages live through their T_e-th tick:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        List<ObjectNode> steps = StepLogFile.read(log).steps();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            ObjectNode line = steps.get(t.index() - 1);
            assertThat(line.get("action").asText()).isEqualTo("SettleNumber");
            assertThat(line.get("server").asText() + "." + line.get("seq").asText()).isEqualTo("A.0");
        });
    }

    /**
     * A restart reopens a settled number (ExactlyOnceS2MsgAsync's ServerCrashAsync, S2Server's
     * constructor): A.0 settles and a sync counts it settled, A delivers A.0 and crashes before any
     * peer confirmed it; the restarted core waits T_e again, so its next request does not count for
     * A.0 (the reply's conf is [1]) and the one after T_e does ([0,1]). TLC accepts the log with the
     * replies' conf checked by equality only through the restart's reopening: with ServerCrash
     * keeping settled (the spec before issue 20's restart fix) it is rejected at the first reply,
     * whose conf lacks the 0 the spec counts. What the log cannot show is when the reopened number
     * settles again: the world writes no second SettleNumber line, so the spec settles it at an
     * unlogged step (TraceExactlyOnceS2Async's SettleFor), and a reopened number has no replica left
     * (SettledHasNoReplica), so that step is always enabled.
     */
    @Test
    void aRestartReopensTheNumbersNoPeerConfirmed() {
        EoWorld world = EoWorld.s2WithReplicasAsMessages(2, 2, TE);
        Path log = logged(dir.resolve("restart.jsonl"), world, this::restartReopens);
        Validation ok = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("EoWorld, Strategy 2, a restart reopening A.0: " + ok.summary());
        assertThat(ok.accepted()).as("the real cores\n%s", ok.report()).isTrue();
        List<ObjectNode> steps = StepLogFile.read(log).steps();
        int crash = java.util.stream.IntStream.range(0, steps.size())
                .filter(i -> steps.get(i).path("action").asText().equals("ServerCrash")).findFirst().orElseThrow();
        assertThat(steps.subList(0, crash)).as("A.0 settled before the crash")
                .anyMatch(l -> l.path("action").asText().equals("SettleNumber"));
        assertThat(steps.subList(crash, steps.size()).stream()
                .filter(l -> l.path("action").asText().equals("ReceiveSyncReply")).map(l -> l.get("conf").toString()))
                .as("not counted while A.0 waits again, counted after").containsExactly("[1]", "[0,1]");
    }

    private void restartReopens(EoWorld world) {
        world.create(0, 0); // A.0
        world.deliverFirst(m -> m instanceof EoMessage.Replica); // B stores it
        world.tick(TE); // A.0 settles by A's clock
        world.sync(0, 0); // SettleNumber A.0; round 1 counts for it
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
        world.deliverFirst(m -> m instanceof EoMessage.SyncReply); // B holds A.0: 0 not confirmed
        world.connect(0, 0);
        world.sendNote(0);
        world.deliverFirst(m -> m instanceof EoMessage.NoteDelivery);
        world.deliverFirst(m -> m instanceof EoMessage.NoteAck); // A.0 removed at A
        world.crashServer(0); // A.0, confirmed by no peer, waits T_e again
        world.sync(0, 0); // round 2: B learns A.0 removed, but the request started during the wait
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
        world.deliverFirst(m -> m instanceof EoMessage.SyncReply);
        world.tick(TE);
        world.sync(0, 0); // round 3, after the wait: it counts
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
        world.deliverFirst(m -> m instanceof EoMessage.SyncReply);
    }

    /**
     * Rule "tag" (issue 20 item 1, the lost replica; the sync lines carry msgTags, checked against
     * Tagged = TRUE): A.1's replica to B expires, so B numbers the new A.0 2, and a reply A built
     * before it reused 0 (removed A.0 of issue 0, seen 2) reaches B after the new A.0's replica. The
     * real B keeps the new A.0 (issue 2) and the log is accepted; B without the tag (the seam) drops
     * it, and the spec refuses that ReceiveSyncReply line (B's K).
     */
    @Test
    void aStaleRemovalTakingTheNewerIncarnationIsRejectedAtTheStaleReply() throws Exception {
        EoWorld real = EoWorld.s2WithReplicasAsMessages(2, 2, TE);
        Path good = logged(dir.resolve("tag.jsonl"), real, this::lostReplica);
        Validation ok = TestValidators.IN_JVM.validate(List.of(good));
        assertThat(ok.accepted()).as("the same schedule over the real cores\n%s", ok.report()).isTrue();
        assertThat(Files.readString(good)).as("the stale reply names the old A.0 by its issue number")
                .contains("\"msgTags\":{\"A.0\":0,\"A.1\":1}");
        assertThat(real.created).as("A.0, A.1 and the new A.0").hasSize(3);
        assertThat(real.serverStates().get(1).k()).as("B keeps the new A.0").hasSize(1);

        EoWorld broken = EoWorld.s2WithReplicasAsMessages(2, 2, TE).withoutS2Tag();
        Path log = logged(dir.resolve("no-tag.jsonl"), broken, this::lostReplica);
        assertThat(broken.serverStates().get(1).k()).as("B dropped the new A.0 unprocessed").isEmpty();
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, EoWorld over S2Servers without rule \"tag\":\n" + v.report());
        assertThat(v.accepted()).isFalse();
        List<ObjectNode> steps = StepLogFile.read(log).steps();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            ObjectNode line = steps.get(t.index() - 1);
            assertThat(line.get("action").asText()).isEqualTo("ReceiveSyncReply");
            assertThat(line.get("server").asText()).isEqualTo("B");
        });
    }

    private void lostReplica(EoWorld world) {
        world.create(0, 0); // A.0
        world.deliverFirst(m -> m instanceof EoMessage.Replica); // B stores it (B's number 1)
        world.connect(0, 0);
        world.sendNote(0);
        world.deliverFirst(m -> m instanceof EoMessage.NoteDelivery);
        world.deliverFirst(m -> m instanceof EoMessage.NoteAck); // A.0 removed at A (issue 0)
        world.tick(TE); // A.0 settles
        world.sync(0, 0); // B drops A.0 and confirms 0 gone
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
        world.deliverFirst(m -> m instanceof EoMessage.SyncReply);
        world.tick(TE); // Condition 1's wait after the confirmation
        world.create(0, 0); // A.1 (issue 1)
        world.tick(TE); // its replica to B expires unreceived; A.1 settles
        world.sendNote(0);
        world.deliverFirst(m -> m instanceof EoMessage.NoteDelivery);
        world.deliverFirst(m -> m instanceof EoMessage.NoteAck);
        world.sync(0, 0); // B learns A.1 removed; 0 and 1 confirmed gone
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
        world.deliverFirst(m -> m instanceof EoMessage.SyncReply);
        world.tick(TE);
        world.sync(1, 0); // B's request; A's reply (removed A.0 of issue 0, seen 2) is held back
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
        world.create(0, 0); // the new A.0 (issue 2)
        world.deliverFirst(m -> m instanceof EoMessage.Replica); // B numbers it 2
        world.deliverFirst(m -> m instanceof EoMessage.SyncReply); // the stale reply
    }

    /** The schedule of S2LateReplicaTest, on the world's network; with the seam, on to the duplicate. */
    private void lateReplica(EoWorld world) {
        world.create(0, 0); // A.0; its replica to B waits in flight
        world.connect(0, 0);
        world.sendNote(0);
        world.deliverFirst(m -> m instanceof EoMessage.NoteDelivery);
        world.deliverFirst(m -> m instanceof EoMessage.NoteAck);
        world.sync(0, 0); // before A.0 settled
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
        world.deliverFirst(m -> m instanceof EoMessage.SyncReply);
        world.deliverFirst(m -> m instanceof EoMessage.Replica); // late: B stores A.0 again
        world.tick(TE);
        world.create(0, 0);
        if (world.created.size() < 2) {
            return;
        }
        world.deliverFirst(m -> m instanceof EoMessage.Replica); // A.1 reaches B
        world.sendNote(0);
        world.deliverFirst(m -> m instanceof EoMessage.NoteDelivery);
        world.deliverFirst(m -> m instanceof EoMessage.NoteAck);
        world.connect(0, 1); // B offers the oldest of stream A it holds: the old A.0
        world.sendNote(0);
        world.deliverFirst(m -> m instanceof EoMessage.NoteDelivery);
    }

    @Test
    void aSecondDeliveryInsertedByHandIsRejectedThere() {
        HandEditedLogs.assertSecondProcessingRejectedThere(STORED);
    }

    @Test
    void aSendNoteRemovedByHandIsRejectedWhereItIsMissed() {
        HandEditedLogs.assertSendRemovedRejectedAtItsNote(STORED);
    }

    /**
     * EoWorldValidationTest's seeded schedule over a Strategy 2 world with replicas as messages and
     * W = 2, then three more notes at A, each followed by two fair rounds (syncs, T_e passing), so
     * numbers are reused. The stored log is seed 1's.
     */
    static Path run(Path file, long seed, UnaryOperator<EoWorld> seam) {
        return run(file, seed, seam.apply(EoWorld.s2WithReplicasAsMessages(2, 2, TE)));
    }

    /** {@link #run(Path, long, UnaryOperator)} over {@code start} (W = 2, T_e = 3). */
    static Path run(Path file, long seed, EoWorld start) {
        return logged(file, start, world -> {
            EoWorldValidationTest.schedule(world, seed);
            for (int i = 0; i < 3; i++) {
                world.create(0, 0);
                world.fairRounds(2, () -> true);
            }
        });
    }

    static Path logged(Path file, EoWorld world, Consumer<EoWorld> steps) {
        try (StepLog log = StepLog.open(file, world.header())) {
            world.logSteps(log);
            steps.accept(world);
        }
        return file;
    }
}
