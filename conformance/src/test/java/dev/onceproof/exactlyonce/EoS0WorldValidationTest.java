package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.ScmpTraceValidationTest;
import dev.onceproof.conformance.validate.StepLogFile;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.Validation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for Strategy 0: impl's {@link EoWorld} over S0Server and S0Client cores (notes
 * replicated by messages taken at once, syncs as requests and replies carrying the removed ids,
 * removals forgotten by the clock rule, on a network that loses, duplicates, reorders and delays
 * within T_e, crashes rebuilt from the stores) logs a seeded schedule, and TLC accepts it as a
 * behaviour of ExactlyOnceS0MsgTimed (specs/exactlyonce/TraceExactlyOnceS0.tla). The controls: the
 * world over servers whose forget rule skips a guard (the seams of MutS0MsgForgetUnconfirmed and
 * MutS0MsgForgetEarly) is rejected at the Forget that breaks it; a second ack inserted, a SendNote
 * removed and a StartSync removed by hand are rejected where they go wrong. A second processing
 * inserted is accepted: Strategy 0 is the at-least-once baseline, its spec processes copies.
 */
class EoS0WorldValidationTest {

    /** Seed 2 of the schedule: a late sync reply brings back a removal its receiver forgot. */
    static final Path STORED = EoS1WorldValidationTest.STORED.resolve("s0-world-seed2.jsonl");

    @TempDir
    Path dir;

    /** Seed 1 here; seed 2 is the stored log, which EoS3TraceValidationTest and verify validate. */
    @Test
    void seededSchedulesOfTheWorldAreBehavioursOfTheSpec() throws Exception {
        for (long seed : new long[] {1}) {
            Path log = run(dir.resolve("s0-world-" + seed + ".jsonl"), seed, w -> w);
            Validation v = TestValidators.IN_JVM.validate(List.of(log));
            System.out.println("EoWorld, Strategy 0, seed " + seed + ": " + v.summary());
            assertThat(v.accepted()).as("seed %d\n%s\n%s", seed, v.report(), Files.readString(log)).isTrue();
            assertThat(Files.readString(log)).contains("\"action\":\"Forget\"", "\"action\":\"HandleSync\"",
                    "\"action\":\"ReceiveSyncReply\"", "\"action\":\"ReceiveAck\"");
        }
    }

    /** Forgetting before every peer confirmed: the spec's Forget needs Confirmed(s, i). */
    @Test
    void serversForgettingUnconfirmedRemovalsAreRejectedAtTheForget() {
        assertRejectedAtAForget(run(dir.resolve("unconfirmed.jsonl"), 1, w -> w.withS0ForgetGuards(false, true)),
                "without Confirmed(s, i)");
    }

    /** Forgetting without the T_e wait: the timed spec's Forget needs Waited(s, i) on its clock. */
    @Test
    void serversForgettingBeforeTeHasPassedAreRejectedAtTheForget() {
        assertRejectedAtAForget(run(dir.resolve("early.jsonl"), 1, w -> w.withS0ForgetGuards(true, false)),
                "without the T_e wait");
    }

    private static void assertRejectedAtAForget(Path log, String what) {
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, EoWorld over S0Servers forgetting " + what + " (seed 1):\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement()
                .satisfies(t -> assertThat(t.text()).contains("\"action\":\"Forget\""));
    }

    /** Deliver succeeds once: a second ack of the same note finds no Deliver pending. */
    @Test
    void aSecondAckInsertedByHandIsRejectedThere() {
        StepLogFile log = StepLogFile.read(STORED);
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        int first = ScmpTraceValidationTest.indexOf(steps, "ReceiveAck", null);
        steps.add(first + 1, steps.get(first).deepCopy());
        Validation v = TestValidators.IN_JVM.validateLogs(List.of(log.withSteps(steps)));
        System.out.println("Control, the ack of line " + (first + 2) + " inserted again:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> assertThat(t.index()).isEqualTo(first + 2));
    }

    /** At-least-once: a copy of a note processed again is a behaviour of Strategy 0's spec. */
    @Test
    void aSecondProcessingInsertedByHandIsAcceptedForStrategy0IsAtLeastOnce() {
        HandEditedLogs.Edit e = HandEditedLogs.secondProcessing(StepLogFile.read(STORED));
        Validation v = e.validation();
        System.out.println("The processing of line " + (e.at() + 2) + " inserted again: " + v.summary());
        assertThat(v.accepted()).as(v.report()).isTrue();
    }

    @Test
    void aSendNoteRemovedByHandIsRejectedWhereItIsMissed() {
        HandEditedLogs.Edit e = HandEditedLogs.withoutFirstReceivedSend(StepLogFile.read(STORED));
        Validation v = e.validation();
        ObjectNode send = e.step();
        System.out.println("Control, the first received SendNote removed (" + send + "):\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.index()).isGreaterThan(e.at());
            assertThat(t.text()).contains("\"note\":" + send.get("note"));
        });
    }

    /**
     * A request the log never sent cannot be merged: neither snet nor the module's record of sent
     * messages (the Late merge) has it, so the HandleSync that takes it is rejected.
     */
    @Test
    void aStartSyncRemovedByHandIsRejectedAtTheMergeOfItsRequest() {
        StepLogFile log = StepLogFile.read(STORED);
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        int at = loneRequest(steps);
        ObjectNode start = steps.remove(at);
        int merge = handled(steps, start, at);
        Validation v = TestValidators.IN_JVM.validateLogs(List.of(log.withSteps(steps)));
        System.out.println("Control, the StartSync " + start + " removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> assertThat(t.index()).isEqualTo(merge + 1));
    }

    /** The first StartSync with ids whose request no other line sends and a later HandleSync takes. */
    private static int loneRequest(List<ObjectNode> steps) {
        for (int i = 0; i < steps.size(); i++) {
            ObjectNode s = steps.get(i);
            if (!s.path("action").asText().equals("StartSync") || s.get("msg").isEmpty()) {
                continue;
            }
            int j = i;
            boolean lone = java.util.stream.IntStream.range(0, steps.size())
                    .noneMatch(k -> k != j && steps.get(k).path("action").asText().equals("StartSync")
                            && steps.get(k).get("server").equals(s.get("server"))
                            && steps.get(k).get("peer").equals(s.get("peer")) && steps.get(k).get("msg").equals(s.get("msg")));
            if (lone && handled(steps, s, i + 1) >= 0) {
                return i;
            }
        }
        throw new AssertionError("no StartSync whose request alone is handled later");
    }

    /** The index of the first HandleSync at or after {@code from} that takes {@code start}'s request, or -1. */
    private static int handled(List<ObjectNode> steps, ObjectNode start, int from) {
        for (int k = from; k < steps.size(); k++) {
            ObjectNode h = steps.get(k);
            if (h.path("action").asText().equals("HandleSync") && h.get("server").equals(start.get("peer"))
                    && h.get("peer").equals(start.get("server")) && h.get("msg").equals(start.get("msg"))) {
                return k;
            }
        }
        return -1;
    }

    /** EoWorldValidationTest's seeded schedule over a Strategy 0 world ({@code seam} may break its cores). */
    static Path run(Path file, long seed, UnaryOperator<EoWorld> seam) {
        return EoWorldValidationTest.runLogged(seam.apply(new EoWorld(Strategy.S0, 2, 1, 3, 2, 3)), file, seed);
    }
}
