package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.ScmpTraceValidationTest;
import dev.onceproof.conformance.validate.StepLogFile;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.Validation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The hand-edited world logs of the exactly-once trace-validation controls (issue 21 item 4), shared
 * by the Strategy 0, 1 and 2 tests: each edit of a one-process log, validated in this JVM.
 */
final class HandEditedLogs {

    private HandEditedLogs() {
    }

    /** What an edit did: the 0-based index of the line it touched, that line, and the verdict. */
    record Edit(int at, ObjectNode step, Validation validation) {
    }

    /** The client's first accepted ReceiveNote inserted again right after itself (its 1-based line is at + 2). */
    static Edit secondProcessing(StepLogFile log) {
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        int first = ScmpTraceValidationTest.indexOf(steps, "ReceiveNote", "accepted");
        steps.add(first + 1, steps.get(first).deepCopy());
        return new Edit(first, steps.get(first), TestValidators.IN_JVM.validateLogs(List.of(log.withSteps(steps))));
    }

    /**
     * The control of a strict strategy (1, 2): the stored log with the client's first accepted
     * processing inserted again is rejected at the inserted line.
     */
    static void assertSecondProcessingRejectedThere(Path stored) {
        Edit e = secondProcessing(StepLogFile.read(stored));
        Validation v = e.validation();
        System.out.println("Control, the client's processing of line " + (e.at() + 2) + " inserted again:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        int inserted = e.at() + 2; // 1-based: the original is line first + 1 of the process
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> assertThat(t.index()).isEqualTo(inserted));
    }

    /**
     * The control of Strategy 2's logs (notes named by server and seq): the stored log without its
     * first received SendNote is rejected after the removed line, at a line naming that note.
     */
    static void assertSendRemovedRejectedAtItsNote(Path stored) {
        Edit e = withoutFirstReceivedSend(StepLogFile.read(stored));
        Validation v = e.validation();
        ObjectNode send = e.step();
        System.out.println("Control, the first received SendNote removed (" + send + "):\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.index()).isGreaterThan(e.at());
            String[] id = send.get("note").asText().split("\\.");
            assertThat(t.text()).contains("\"server\":\"" + id[0] + "\"", "\"seq\":" + id[1]);
        });
    }

    /** The first SendNote that alone explains a receipt ({@link #firstReceivedSend}) removed. */
    static Edit withoutFirstReceivedSend(StepLogFile log) {
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        int at = firstReceivedSend(steps);
        ObjectNode send = steps.remove(at);
        return new Edit(at, send, TestValidators.IN_JVM.validateLogs(List.of(log.withSteps(steps))));
    }

    /**
     * The first SendNote that alone explains a receipt: the client then receives that note from
     * that server, and no other SendNote of it comes before the receipt. (Another would explain
     * it too, since the spec's network holds a message once however often it is sent; a send the
     * client never sees, dropped by a session restart, is indistinguishable from none. Removing
     * either is no error, and the validator rightly accepts the log without it.)
     */
    static int firstReceivedSend(List<ObjectNode> steps) {
        for (int i = 0; i < steps.size(); i++) {
            if (!steps.get(i).path("action").asText().equals("SendNote")) {
                continue;
            }
            for (int j = i + 1; j < steps.size(); j++) {
                if (same(steps.get(j), steps.get(i), "ReceiveNote")) {
                    int at = i;
                    boolean alone = IntStream.range(0, j).noneMatch(k -> k != at && same(steps.get(k), steps.get(at), "SendNote"));
                    if (alone) {
                        return i;
                    }
                    break;
                }
            }
        }
        throw new AssertionError("no SendNote that alone explains a receipt");
    }

    private static boolean same(ObjectNode line, ObjectNode send, String action) {
        return line.path("action").asText().equals(action) && line.get("note").equals(send.get("note"))
                && line.get("server").equals(send.get("server"));
    }
}
