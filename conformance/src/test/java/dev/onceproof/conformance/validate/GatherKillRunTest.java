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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * How the Strategy 4 SIGKILL run's logs become one sequence for TraceExactlyOnceS4 (GatherKillRun),
 * and a hand-edited control on the stored run (validate/exactlyonce/gather-sigkill-seed21/): the
 * validation of fresh runs is GatherSigkillValidationTest (crash execution).
 */
class GatherKillRunTest {

    static final Path STORED = TestValidators.REPO.root()
            .resolve("conformance/src/test/resources/validate/exactlyonce/gather-sigkill-seed21");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode line(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static StepLogFile log(String process, int incarnation, String... steps) {
        ObjectNode header = line("{\"steplog\":1,\"spec\":\"ExactlyOnceS4Msg\",\"mode\":\"msg\",\"process\":\"" + process
                + "\",\"constants\":{\"Servers\":[\"A\",\"B\"],\"Client\":\"c\",\"incarnation\":" + incarnation + "}}");
        List<ObjectNode> lines = new ArrayList<>();
        for (String s : steps) {
            lines.add(line(s));
        }
        return new StepLogFile(Path.of(process + "-" + incarnation + ".jsonl"), header, lines, false);
    }

    private static List<String> merged(StepLogFile... logs) {
        return GatherKillRun.processes(List.of(logs)).get(0).lines().stream().map(l -> l.step().toString()).toList();
    }

    private static final String RECOVER_A = "{\"action\":\"ServerRecover\",\"server\":\"A\",\"at\":%d,"
            + "\"processed\":%s,\"unprocessed\":%s,\"K\":[],\"D\":[]}";

    @Test
    void linesAreMergedByTheirClockWithEachKillAsACrashBeforeTheRestart() {
        List<String> lines = merged(
                log("A", 1, RECOVER_A.formatted(10, "[]", "[]"),
                        "{\"action\":\"CreateNote\",\"server\":\"A\",\"at\":30,\"note\":\"n1\"}"),
                log("A", 2, RECOVER_A.formatted(50, "[]", "[]")),
                log("client", 1, "{\"action\":\"Connect\",\"server\":\"A\",\"at\":20}",
                        "{\"action\":\"Disconnect\",\"at\":40}"));
        assertThat(lines).extracting(l -> line(l).path("action").asText()).containsExactly("ServerRecover", "Connect",
                "CreateNote", "Disconnect", "ServerCrash", "ServerRecover");
        assertThat(lines).noneMatch(l -> l.contains("\"at\""));
        assertThat(lines.get(2)).as("the killed incarnation's last line").contains("\"cut\":true");
    }

    @Test
    void aKilledADeliverOkIsDroppableOnlyWhenTheJournalSaysItDidNotProcess() {
        String ok = "{\"action\":\"ADeliverOK\",\"server\":\"A\",\"at\":30,\"note\":\"n1\"}";
        assertThat(merged(log("A", 1, RECOVER_A.formatted(10, "[]", "[]"), ok),
                log("A", 2, RECOVER_A.formatted(50, "[]", "[\"n1\"]"))).get(1)).contains("\"cut\":true");
        assertThat(merged(log("A", 1, RECOVER_A.formatted(10, "[]", "[]"), ok),
                log("A", 2, RECOVER_A.formatted(50, "[\"n1\"]", "[]"))).get(1)).doesNotContain("cut");
        assertThat(merged(log("A", 1, RECOVER_A.formatted(10, "[]", "[]"), ok),
                log("A", 2, RECOVER_A.formatted(50, "[]", "[]"))).get(1)).doesNotContain("cut");
    }

    @Test
    void badInputIsNamed() {
        assertThatThrownBy(() -> merged(log("A", 1, "{\"action\":\"CreateNote\",\"server\":\"A\",\"at\":1,\"note\":\"n1\"}")))
                .isInstanceOf(StepLogException.class).hasMessageContaining("A-1.jsonl:2").hasMessageContaining("ServerRecover");
        assertThatThrownBy(() -> merged(log("A", 1, RECOVER_A.formatted(10, "[]", "[]"),
                "{\"action\":\"CreateNote\",\"server\":\"A\",\"note\":\"n1\"}")))
                .isInstanceOf(StepLogException.class).hasMessageContaining("A-1.jsonl:3").hasMessageContaining("\"at\"");
        assertThatThrownBy(() -> merged(log("A", 1, RECOVER_A.formatted(10, "[]", "[]"),
                "{\"action\":\"CreateNote\",\"server\":\"A\",\"at\":5,\"note\":\"n1\"}")))
                .isInstanceOf(StepLogException.class).hasMessageContaining("clock went back");
    }

    /**
     * Server B's second incarnation in the stored run was killed after its ADeliverOK line for n16
     * and the processing, before the core recorded the outcome; the restart read n16 from the
     * journal (D holds it, "processed":["n16"]). That line removed by hand, the log no longer shows
     * the processing, and the restart's ServerRecover is rejected: its D has n16, the spec's does not.
     * So the line TLC may drop is not simply the last one: an ADeliverOK whose processing the journal
     * holds must be taken.
     */
    @Test
    void aProcessingRemovedBeforeAKillIsRejectedAtTheRestartThatReadsItFromTheJournal() {
        List<StepLogFile> logs = files(STORED).stream().map(f -> {
            StepLogFile log = StepLogFile.read(f);
            if (!f.getFileName().toString().equals("server-B-2.jsonl")) {
                return log;
            }
            List<ObjectNode> steps = new ArrayList<>(log.steps());
            ObjectNode last = steps.remove(steps.size() - 1);
            assertThat(last.toString()).contains("\"action\":\"ADeliverOK\"", "\"note\":\"n16\"");
            return log.withSteps(steps);
        }).toList();
        Validation v = TestValidators.IN_JVM.validateLogs(logs);
        System.out.println("Control, server B's ADeliverOK of n16 before the kill removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.origin()).contains("server-B-3.jsonl:2");
            assertThat(t.text()).contains("\"processed\":[\"n16\"]");
        });
    }

    private static List<Path> files(Path dir) {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
