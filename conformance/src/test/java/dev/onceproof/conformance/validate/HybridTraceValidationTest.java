package dev.onceproof.conformance.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.rpc.hybrid.CallOutcome;
import dev.onceproof.rpc.hybrid.HybridMessage;
import dev.onceproof.rpc.hybrid.HybridServerCore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for the hybrid (SCMP inside Birrell and Nelson's RPC, Hybrid.tla): the logs of
 * the seeded world of the real ConcurrentHybridServer and two clients (one cursor each) are a
 * behaviour of the spec (specs/rpc/TraceHybrid.tla), made on the spot and stored; and the check can
 * fail: a server core broken through its judgeWithoutEntry seam, a second execution inserted and a
 * client's Call removed by hand are each rejected at the line where they go wrong.
 */
class HybridTraceValidationTest {

    static final TraceValidator VALIDATOR = ScmpTraceValidationTest.VALIDATOR;
    static final Path STORED = ScmpTraceValidationTest.REPO.root()
            .resolve("conformance/src/test/resources/validate/hybrid");
    /** A seed whose world delivers a late copy of an executed call after its entry was collected. */
    static final long LATE_COPY_SEED = 9;

    @TempDir
    Path dir;

    @Test
    void aFreshSeededWorldIsABehaviourOfTheSpec() {
        long seed = System.nanoTime();
        List<Path> logs = HybridRun.run(dir, seed, 300, HybridRun.realCore());
        Validation v = VALIDATOR.validate(logs);
        assertThat(v.accepted()).as("seed %d\n%s\n%s", seed, v.report(), ScmpTraceValidationTest.read(logs.get(0)))
                .isTrue();
    }

    /** Real threads on the system clock: the wrappers' locks order what the threads did. */
    @Test
    void aThreadedRunOnTheSystemClockIsABehaviourOfTheSpec() throws Exception {
        List<Path> logs = HybridThreadsRun.run(dir, 3);
        Validation v = VALIDATOR.validate(logs);
        System.out.println("Hybrid with threads on the system clock: " + v.summary());
        assertThat(v.accepted()).as("%s\n%s", v.report(), ScmpTraceValidationTest.read(logs.get(0))).isTrue();
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

    /**
     * The seam accepts a call on a connection without an entry whatever its timestamp (SCMP's rule
     * 3 gone): a late copy of a call executed and collected runs again. The first server line where
     * the broken core's log leaves the real core's (same seed, same world) is where TLC rejects it.
     */
    @Test
    void aServerExecutingACallAtOrBelowUpperIsRejectedWhereItLeavesTheRealCore() throws Exception {
        Function<InstantSource, HybridServerCore> broken = c -> new HybridServerCore(c, HybridRun.RHO, 1) {
            @Override
            protected CallOutcome judgeWithoutEntry(HybridMessage.Call m, long upper) {
                return CallOutcome.EXECUTE;
            }
        };
        List<String> real = Files.readAllLines(HybridRun.run(Files.createDirectory(dir.resolve("real")),
                LATE_COPY_SEED, 300, HybridRun.realCore()).get(0));
        List<Path> logs = HybridRun.run(Files.createDirectory(dir.resolve("broken")), LATE_COPY_SEED, 300, broken);
        List<String> wrong = Files.readAllLines(logs.get(0));
        int differs = 0;
        while (differs < real.size() && real.get(differs).equals(wrong.get(differs))) {
            differs++;
        }
        assertThat(wrong.get(differs)).as("the broken core's first own line").contains("\"outcome\":\"execute\"");
        Validation v = VALIDATOR.validate(logs);
        System.out.println("Control, HybridServerCore with judgeWithoutEntry always EXECUTE:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        int fileLine = differs + 1;
        assertThat(v.rejection().tried()).anyMatch(t -> t.process().equals("server")
                && t.origin().endsWith("server.jsonl:" + fileLine));
    }

    @Test
    void aSecondExecutionInsertedByHandIsRejectedThere() {
        List<StepLogFile> logs = RpcTraceValidationTest.read(StoredLogs.runs(STORED).get(0));
        StepLogFile server = RpcTraceValidationTest.server(logs);
        List<ObjectNode> steps = new ArrayList<>(server.steps());
        int first = ScmpTraceValidationTest.indexOf(steps.stream().map(s -> {
            ObjectNode tagged = s.deepCopy();
            tagged.put("verdict", s.path("outcome").asText());
            return tagged;
        }).toList(), "ReceiveCall", "execute");
        steps.add(first + 1, steps.get(first).deepCopy());
        Validation v = VALIDATOR.validateLogs(RpcTraceValidationTest.replace(logs, server, server.withSteps(steps)));
        System.out.println("Control, the server's execution of line " + (first + 1) + " inserted again:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        int inserted = first + 2;
        assertThat(v.rejection().tried()).anyMatch(t -> t.process().equals("server") && t.index() == inserted);
    }

    @Test
    void aCallRemovedByHandIsRejectedWhereItIsMissed() {
        List<StepLogFile> logs = RpcTraceValidationTest.read(StoredLogs.runs(STORED).get(0));
        StepLogFile client = logs.stream().filter(l -> l.process().startsWith("client")).findFirst().orElseThrow();
        List<ObjectNode> steps = new ArrayList<>(client.steps());
        ObjectNode call = steps.remove(ScmpTraceValidationTest.indexOf(steps, "Call", null));
        Validation v = VALIDATOR.validateLogs(RpcTraceValidationTest.replace(logs, client, client.withSteps(steps)));
        System.out.println("Control, the client's first Call removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        // The call's next step, at the client (its retransmission, timeout or reply) or at the server.
        assertThat(v.rejection().tried()).anyMatch(t -> t.text().contains("\"conn\":" + call.path("conn"))
                && t.text().contains("\"seq\":" + call.path("seq") + ","));
    }
}
