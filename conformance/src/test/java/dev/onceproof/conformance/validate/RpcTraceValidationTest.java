package dev.onceproof.conformance.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.rpc.core.LoggedRpcRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for RPC: the logs of a real UDP run (server and two clients, one cursor each) are
 * a behaviour of RPC.tla (specs/rpc/TraceRpc.tla), made on the spot and stored; and the check can
 * fail: a server broken through its GC seam, a second execution inserted and a Call removed by hand
 * are each rejected at the line where they go wrong.
 */
class RpcTraceValidationTest {

    static final TraceValidator VALIDATOR = ScmpTraceValidationTest.VALIDATOR;
    static final Path STORED = ScmpTraceValidationTest.REPO.root().resolve("conformance/src/test/resources/validate/rpc");

    @TempDir
    Path dir;

    @Test
    void aFreshRealRunOfServerAndClientsIsABehaviourOfTheSpec() throws Exception {
        List<Path> logs = RpcUdpRun.run(dir, 4);
        Validation v = VALIDATOR.validate(logs);
        assertThat(v.accepted()).as("%s\n%s\n%s\n%s", v.report(), ScmpTraceValidationTest.read(logs.get(0)),
                ScmpTraceValidationTest.read(logs.get(1)), ScmpTraceValidationTest.read(logs.get(2))).isTrue();
    }

    /** Several processes: the server JVM SIGKILLed twice (three incarnations, one process) and a client. */
    @Test
    void aFreshSigkillRunIsABehaviourOfTheSpec() throws Exception {
        List<Path> logs = RpcCrashRun.run(dir, System.nanoTime());
        assertThat(logs).hasSizeGreaterThanOrEqualTo(4);
        Validation v = VALIDATOR.validate(logs);
        assertThat(v.accepted()).as(v.report()).isTrue();
    }

    @Test
    void theStoredRegressionLogsAreAccepted() {
        List<List<Path>> runs = StoredLogs.runs(STORED);
        assertThat(runs).isNotEmpty();
        for (List<Path> run : runs) {
            Validation v = VALIDATOR.validate(run);
            assertThat(v.accepted()).as(v.report()).isTrue();
        }
    }

    @Test
    void theScriptedRunOfTheRealServerIsAccepted() {
        Validation v = VALIDATOR.validate(LoggedRpcRun.run(dir, "NONE"));
        assertThat(v.accepted()).as(v.report()).isTrue();
    }

    /** The seam collects SCMP's entry after the section: the logged upper is not yet raised. */
    @Test
    void aServerCollectingScmpsEntryOutsideTheSectionIsRejectedAtItsCollection() {
        Validation v = VALIDATOR.validate(LoggedRpcRun.run(dir, "SCMP_ENTRY_COLLECTED_AFTER_SECTION"));
        System.out.println("Control, ConcurrentRpcServer with SCMP_ENTRY_COLLECTED_AFTER_SECTION:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).anyMatch(t -> t.text().contains("\"action\":\"CollectGarbage\""));
    }

    @Test
    void aSecondExecutionInsertedByHandIsRejectedThere() {
        List<StepLogFile> logs = udpRun();
        StepLogFile server = server(logs);
        List<ObjectNode> steps = new ArrayList<>(server.steps());
        int first = -1;
        for (int i = 0; i < steps.size() && first < 0; i++) {
            if (steps.get(i).path("outcome").asText().equals("execute")) {
                first = i;
            }
        }
        steps.add(first + 1, steps.get(first).deepCopy());
        Validation v = VALIDATOR.validateLogs(replace(logs, server, server.withSteps(steps)));
        System.out.println("Control, the server's execution of line " + (first + 1) + " inserted again:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        int inserted = first + 2;
        assertThat(v.rejection().tried()).anyMatch(t -> t.process().equals("server") && t.index() == inserted);
    }

    @Test
    void aCallRemovedByHandIsRejectedWhereTheServerReceivesIt() {
        List<StepLogFile> logs = udpRun();
        StepLogFile client = logs.stream().filter(l -> l.process().startsWith("client")).findFirst().orElseThrow();
        List<ObjectNode> steps = new ArrayList<>(client.steps());
        ObjectNode call = steps.remove(ScmpTraceValidationTest.indexOf(steps, "Call", null));
        Validation v = VALIDATOR.validateLogs(replace(logs, client, client.withSteps(steps)));
        System.out.println("Control, the client's first Call removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        // The server's first line about that call: its CALL was never sent (times in the report are relative).
        assertThat(v.rejection().tried()).anyMatch(t -> t.process().equals("server")
                && t.text().contains("\"action\":\"ReceiveCall\"") && t.text().contains("\"conn\":" + call.path("conn")));
    }

    /** The stored UDP run (a server and two clients) the hand-edited controls start from. */
    static List<StepLogFile> udpRun() {
        return read(StoredLogs.runs(STORED).stream().filter(r -> r.get(0).getParent().endsWith("udp-run-1"))
                .findFirst().orElseThrow());
    }

    static List<StepLogFile> read(List<Path> run) {
        return run.stream().map(StepLogFile::read).toList();
    }

    static StepLogFile server(List<StepLogFile> logs) {
        return logs.stream().filter(l -> l.process().equals("server")).findFirst().orElseThrow();
    }

    static List<StepLogFile> replace(List<StepLogFile> logs, StepLogFile old, StepLogFile edited) {
        return logs.stream().map(l -> l == old ? edited : l).toList();
    }
}
