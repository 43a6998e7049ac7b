package dev.onceproof.conformance.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * How Strategy 5's SIGKILL run's logs become one sequence in spec time for TraceExactlyOnceS5
 * (GatherTimedKillRun), and hand-edited controls on the stored run
 * (validate/exactlyonce/gather-s5-sigkill-seed14/: two kills, the first of server C after its
 * ADeliverOK of n12 and the processing, before the outcome was recorded). Fresh runs are
 * GatherS5SigkillValidationTest (crash execution).
 */
class GatherTimedKillRunTest {

    static final Path STORED = TestValidators.REPO.root()
            .resolve("conformance/src/test/resources/validate/exactlyonce/gather-s5-sigkill-seed14");
    /** Strategy 6's stored run: two kills, B's after n11's processing, then the client's connected to C. */
    static final Path STORED_S6 = TestValidators.REPO.root()
            .resolve("conformance/src/test/resources/validate/exactlyonce/gather-s6-sigkill-seed5");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode line(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static StepLogFile log(String process, int incarnation, String... steps) {
        ObjectNode header = line("{\"steplog\":1,\"spec\":\"ExactlyOnceS5Msg\",\"mode\":\"msg\",\"process\":\"" + process
                + "\",\"constants\":{\"Servers\":[\"A\",\"B\"],\"Client\":\"c\",\"incarnation\":" + incarnation
                + ",\"ClockOffset\":{\"A\":0,\"B\":1},\"MaxSkew\":1,\"SkewAllowance\":2,\"Te\":1,\"Boundary\":\"corrected\""
                + ",\"Tr\":6}}");
        List<ObjectNode> lines = new ArrayList<>();
        for (String s : steps) {
            lines.add(line(s));
        }
        return new StepLogFile(Path.of(process + "-" + incarnation + ".jsonl"), header, lines, false);
    }

    private static List<String> merged(StepLogFile... logs) {
        return GatherTimedKillRun.processes(List.of(logs)).get(0).lines().stream().map(l -> l.step().toString()).toList();
    }

    /**
     * By (now, at), not by at alone: the client's Connect, written after A's CreateNote but with the
     * earlier reading, comes first; Tick lines bring the spec's clock to each line's now.
     */
    @Test
    void linesAreMergedByTheirReadingThenTheirClockWithTicksUpToEachReading() {
        List<String> lines = merged(
                log("A", 1, "{\"action\":\"ServerRecover\",\"server\":\"A\",\"now\":1,\"at\":10,\"processed\":[],"
                        + "\"unprocessed\":[],\"K\":[],\"D\":[]}",
                        "{\"action\":\"CreateNote\",\"server\":\"A\",\"now\":3,\"at\":30,\"note\":\"n1\"}"),
                log("client", 1, "{\"action\":\"ClientRecover\",\"now\":0,\"at\":5}",
                        "{\"action\":\"Connect\",\"server\":\"A\",\"now\":2,\"at\":35}"));
        assertThat(lines).extracting(l -> line(l).path("action").asText() + "@" + line(l).path("now").asLong())
                .containsExactly("ClientRecover@0", "Tick@1", "ServerRecover@1", "Tick@2", "Connect@2", "Tick@3",
                        "CreateNote@3");
    }

    @Test
    void badInputIsNamed() {
        assertThatThrownBy(() -> merged(log("client", 1, "{\"action\":\"ClientRecover\",\"at\":5}")))
                .isInstanceOf(StepLogException.class).hasMessageContaining("client-1.jsonl:2")
                .hasMessageContaining("\"now\"");
        assertThatThrownBy(() -> merged(log("client", 1, "{\"action\":\"ClientRecover\",\"now\":4,\"at\":5}",
                "{\"action\":\"Connect\",\"server\":\"A\",\"now\":3,\"at\":6}")))
                .isInstanceOf(StepLogException.class).hasMessageContaining("client-1.jsonl:3")
                .hasMessageContaining("clock went back");
    }

    /** The stored run with one file's steps edited. */
    private static List<StepLogFile> edited(String file, UnaryOperator<List<ObjectNode>> edit) {
        return edited(STORED, file, edit);
    }

    private static List<StepLogFile> edited(Path stored, String file, UnaryOperator<List<ObjectNode>> edit) {
        return files(stored).stream().map(f -> {
            StepLogFile log = StepLogFile.read(f);
            return f.getFileName().toString().equals(file) ? log.withSteps(edit.apply(new ArrayList<>(log.steps()))) : log;
        }).toList();
    }

    /**
     * A step removed: server C's first incarnation was killed after its ADeliverOK of n12 (the last
     * line) and the processing; the restart read n12 from the journal. Without that line the log
     * shows no processing of n12, and C's ServerRecover, whose D holds it, is rejected.
     */
    @Test
    void aProcessingRemovedBeforeAKillIsRejectedAtTheRestartThatReadsItFromTheJournal() {
        Validation v = TestValidators.IN_JVM.validateLogs(edited("server-C-1.jsonl", steps -> {
            ObjectNode last = steps.remove(steps.size() - 1);
            assertThat(last.toString()).contains("\"action\":\"ADeliverOK\"", "\"note\":\"n12\"");
            return steps;
        }));
        System.out.println("Strategy 5 control, C's ADeliverOK of n12 before the kill removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.origin()).contains("server-C-2.jsonl:2");
            assertThat(t.text()).contains("\"processed\":[\"n12\"]");
        });
    }

    /** A second processing inserted: C's ADeliverOK of n1 twice in a row is rejected at the copy. */
    @Test
    void aSecondProcessingIsRejectedAtIt() {
        Validation v = TestValidators.IN_JVM.validateLogs(edited("server-C-1.jsonl", steps -> {
            for (int i = 0; i < steps.size(); i++) {
                if (steps.get(i).path("action").asText().equals("ADeliverOK")) {
                    ObjectNode copy = steps.get(i).deepCopy();
                    copy.put("at", copy.get("at").asLong() + 1);
                    steps.add(i + 1, copy);
                    return steps;
                }
            }
            throw new AssertionError("no ADeliverOK in server-C-1.jsonl");
        }));
        System.out.println("Strategy 5 control, C's first ADeliverOK twice:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.origin()).contains("server-C-1.jsonl:38");
            assertThat(t.text()).contains("\"action\":\"ADeliverOK\"", "\"note\":\"n1\"");
        });
    }

    /**
     * A stamp off the spec's time line: B's first PeriodicSync stamped one unit later than its
     * reading plus its offset is rejected there (the spec's DSync carries Clock(B) = now + 1).
     */
    @Test
    void aSyncStampedOffItsClockIsRejectedAtIt() {
        int[] at = new int[1];
        Validation v = TestValidators.IN_JVM.validateLogs(edited("server-B-1.jsonl", steps -> {
            for (int i = 0; i < steps.size(); i++) {
                ObjectNode s = steps.get(i);
                if (s.path("action").asText().equals("PeriodicSync")) {
                    assertThat(s.get("ts").asLong()).isEqualTo(s.get("now").asLong() + 1);
                    s.put("ts", s.get("ts").asLong() + 1);
                    at[0] = i + 2;
                    return steps;
                }
            }
            throw new AssertionError("no PeriodicSync in server-B-1.jsonl");
        }));
        System.out.println("Strategy 5 control, B's first PeriodicSync stamped a unit late:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement()
                .satisfies(t -> assertThat(t.origin()).contains("server-B-1.jsonl:" + at[0]));
    }

    /**
     * Strategy 6: the client was killed while connected to C, so the spec's H[C] stays OPEN and the
     * next session (A's third) must pull from C, as A's logged stale set says. Edited to trust C
     * (what a client that writes H only at a clean end would make A do), it is rejected there.
     */
    @Test
    void aSessionThatTrustsTheServerOfAKilledConnectionIsRejectedAtItsStartSession() {
        int[] at = new int[1];
        Validation v = TestValidators.IN_JVM.validateLogs(edited(STORED_S6, "server-A-1.jsonl", steps -> {
            for (int i = 0; i < steps.size(); i++) {
                ObjectNode s = steps.get(i);
                if (s.path("action").asText().equals("StartSession") && s.path("session").asInt() == 3) {
                    assertThat(s.get("stale").toString()).isEqualTo("[\"C\"]");
                    s.putArray("stale");
                    at[0] = i + 2;
                    return steps;
                }
            }
            throw new AssertionError("no third StartSession in server-A-1.jsonl");
        }));
        System.out.println("Strategy 6 control, A's session after the client's kill trusting C:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement()
                .satisfies(t -> assertThat(t.origin()).contains("server-A-1.jsonl:" + at[0]));
    }

    private static List<Path> files(Path dir) {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
