package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * DESIGN.md link 5 for Strategy 2: impl's {@link EoWorld} over S2Server and S2Client cores (W = 2,
 * so wire ids are reused; syncs as requests and replies with round, K, removed and seen, on a
 * network that loses, duplicates, reorders and delays within T_e; crashes rebuilt from the stores)
 * logs a seeded schedule, and TLC accepts it as a behaviour of ExactlyOnceS2Msg
 * (specs/exactlyonce/TraceExactlyOnceS2.tla). The controls: servers whose Condition 1 does not wait
 * T_e (EoSeams.s2WithoutTeWait's seam) are rejected at the creation that reuses a number while a
 * copy of its old incarnation is in flight; a second processing inserted by hand and a SendNote
 * removed by hand are rejected where they go wrong.
 */
class EoS2WorldValidationTest {

    static final Path STORED = EoS1WorldValidationTest.STORED.resolve("s2-world-seed1.jsonl");

    @TempDir
    Path dir;

    @Test
    void aSeededScheduleWithReusedNumbersIsABehaviourOfTheSpec() throws Exception {
        Path log = run(dir.resolve("s2-world-1.jsonl"), 1, w -> w);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("EoWorld, Strategy 2, seed 1: " + v.summary());
        assertThat(v.accepted()).as("%s\n%s", v.report(), Files.readString(log)).isTrue();
        // What the run must cover for the acceptance to say something: reuse, syncs, losses, dropped copies.
        assertThat(Files.readString(log)).contains("\"inc\":1", "\"action\":\"HandleSync\"",
                "\"action\":\"ReceiveSyncReply\"", "\"action\":\"Lose\"", "\"action\":\"ReceiveAck\"");
    }

    /**
     * A.0 is processed while a duplicate of its delivery stays in flight; B confirms A.0 gone. The
     * real core then waits T_e before issuing A.1 (whose successor, A.0, is next to be reused);
     * the seam's does not, and the spec refuses that CreateNote: a copy of A.0 is on the way.
     */
    @Test
    void serversThatDoNotWaitTeAreRejectedAtTheReuseWhileACopyIsInFlight() throws Exception {
        Path good = hand(dir.resolve("waits.jsonl"), w -> w);
        assertThat(creations(good)).as("the real core waits T_e: A.1 not created yet").isEqualTo(1);
        Path log = hand(dir.resolve("no-te-wait.jsonl"), EoWorld::withoutS2TeWait);
        assertThat(creations(log)).isEqualTo(2);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, EoWorld over S2Servers without the T_e wait:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        List<ObjectNode> steps = StepLogFile.read(log).steps();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.text()).contains("\"action\":\"CreateNote\"", "\"seq\":1");
            assertThat(steps.get(t.index() - 1).get("note").asText()).isEqualTo("A.1");
        });
    }

    /**
     * A.0 then A.1 are processed and confirmed gone; B's sync request, carrying both removals and
     * seen = 2, is still in flight when A reuses A.0 (entered there as number 3), after the T_e
     * wait since its confirmation, within T_e of the request's sending. The real core keeps the
     * new A.0 (numbered above the request's seen); servers without the watermark drop it, and the
     * spec rejects that HandleSync line: its K of A after the merge is not the spec's.
     */
    @Test
    void serversWithoutTheWatermarkAreRejectedAtTheStaleMergeThatDropsTheReusedNumber() throws Exception {
        Path good = logged(dir.resolve("watermark.jsonl"), new EoWorld(Strategy.S2, 2, 1, 2, 2, 3), this::staleSync);
        Validation ok = TestValidators.IN_JVM.validate(List.of(good));
        assertThat(ok.accepted()).as("the same schedule over the real cores\n%s", ok.report()).isTrue();
        Path log = logged(dir.resolve("no-watermark.jsonl"), new EoWorld(Strategy.S2, 2, 1, 2, 2, 3, false),
                this::staleSync);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, EoWorld over S2Servers without the watermark:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        List<ObjectNode> steps = StepLogFile.read(log).steps();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            ObjectNode line = steps.get(t.index() - 1);
            assertThat(line.get("action").asText()).isEqualTo("HandleSync");
            assertThat(line.get("server").asText()).isEqualTo("A");
            assertThat(line.get("K").toString()).doesNotContain("A.0");
        });
    }

    private void staleSync(EoWorld world) {
        for (int i = 0; i < 2; i++) { // A.0, then A.1: each processed, acked, confirmed gone by B
            world.create(0, 0);
            if (i == 0) {
                world.connect(0, 0);
            }
            world.sendNote(0);
            world.deliverFirst(m -> m instanceof EoMessage.NoteDelivery);
            world.deliverFirst(m -> m instanceof EoMessage.NoteAck);
            world.sync(0, 0);
            world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
            world.deliverFirst(m -> m instanceof EoMessage.SyncReply);
            world.tick(world.te);
        }
        assertThat(world.created).hasSize(2);
        world.sync(1, 0); // B's request: removed {A.0, A.1}, seen 2; it waits in flight
        world.create(0, 0); // A.0 again, numbered 3
        assertThat(world.reusedIds).isEqualTo(1);
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
    }

    @Test
    void aSecondDeliveryInsertedByHandIsRejectedThere() {
        HandEditedLogs.assertSecondProcessingRejectedThere(STORED);
    }

    @Test
    void aSendNoteRemovedByHandIsRejectedWhereItIsMissed() {
        HandEditedLogs.assertSendRemovedRejectedAtItsNote(STORED);
    }

    private static long creations(Path log) {
        return StepLogFile.read(log).steps().stream()
                .filter(s -> s.path("action").asText().equals("CreateNote")).count();
    }

    /** The control's schedule: A.0 processed with a copy left in flight, confirmed gone by B, then A.1. */
    private static Path hand(Path file, UnaryOperator<EoWorld> seam) {
        return logged(file, seam, world -> {
            world.create(0, 0);
            world.connect(0, 0);
            world.sendNote(0);
            world.deliver(0, true); // processed; a copy of the delivery stays in flight
            world.deliverFirst(m -> m instanceof EoMessage.NoteAck);
            world.sync(0, 0);
            world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
            world.deliverFirst(m -> m instanceof EoMessage.SyncReply);
            world.create(0, 0);
        });
    }

    /**
     * EoWorldValidationTest's seeded schedule over a Strategy 2 world with W = 2, then three more
     * notes at A, each followed by two fair rounds (syncs, T_e passing), so numbers are reused.
     */
    static Path run(Path file, long seed, UnaryOperator<EoWorld> seam) {
        return run(file, seed, seam.apply(new EoWorld(Strategy.S2, 2, 1, 2, 2, 3)));
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

    private static Path logged(Path file, UnaryOperator<EoWorld> seam, Consumer<EoWorld> steps) {
        return logged(file, seam.apply(new EoWorld(Strategy.S2, 2, 1, 2, 2, 3)), steps);
    }

    private static Path logged(Path file, EoWorld world, Consumer<EoWorld> steps) {
        try (StepLog log = StepLog.open(file, world.header())) {
            world.logSteps(log);
            steps.accept(world);
        }
        return file;
    }
}
