package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.CausalUdpRun;
import dev.onceproof.conformance.validate.Rejection;
import dev.onceproof.conformance.validate.StepLogFile;
import dev.onceproof.conformance.validate.StoredLogs;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.steplog.StepLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DESIGN.md link 5 for the causal group: the step logs of real runs (one per node, merged by
 * happens-before, specs/causal/TraceCausal.tla) are behaviours of Causal.tla. Runs made here: impl's schedule
 * world (CausalScheduleProperties' decisions on seeded schedules, with its fair end), in causal and
 * FIFO mode, with and without a crash, and the real runtime (three CausalUdpNodes on loopback with
 * loss). The stored regression logs in validate/causal/. The controls: a core broken through its
 * {@code deliverable} seam is rejected at its first delivery the guard forbids; a second delivery
 * inserted by hand and a buffered receipt removed by hand are rejected at the line where they go wrong.
 */
class CausalTraceValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"CAUSAL, 1, true", "FIFO, 2, true", "CAUSAL, 3, false"})
    void theScheduleWorldsLogsAreABehaviourOfCausal(Mode mode, long seed, boolean mayCrash) {
        List<Path> logs = CausalWorldRun.run(dir, mode, seed, 60, mayCrash);
        Validation v = VALIDATOR.validate(logs);
        assertThat(v.accepted()).as("%s seed %d\n%s", mode, seed, v.report()).isTrue();
        assertThat(v.lines()).isGreaterThan(40);
    }

    /** The runtime: three nodes over UDP with 5% loss, each step logged under the node's lock. */
    @Test
    void aLossyLoopbackGroupsLogsAreABehaviourOfCausal() throws Exception {
        List<Path> logs = CausalUdpRun.run(dir, 24, 0.05, 5);
        Validation v = VALIDATOR.validate(logs);
        assertThat(v.accepted()).as("%s", v.report()).isTrue();
        assertThat(v.lines()).isGreaterThan(100);
    }

    @Test
    void theStoredRegressionLogsAreAccepted() {
        List<List<Path>> runs = StoredLogs.runs(StoredLogs.dir(TestValidators.REPO, "causal"));
        assertThat(runs).isNotEmpty();
        for (List<Path> run : runs) {
            Validation v = VALIDATOR.validate(run);
            assertThat(v.accepted()).as("%s\n%s", run, v.report()).isTrue();
        }
    }

    /**
     * A node whose guard waits for its origin's earlier events only (FIFO's guard in causal mode)
     * delivers an event before one in its causal past. On the first seed where that changes the run,
     * TLC rejects the broken run at that node's first line that differs from the real core's, a
     * Deliver that Causal's Deliverable forbids.
     */
    @Test
    void aCoreThatIgnoresCausalDependenciesIsRejectedAtItsFirstWrongDelivery() throws IOException {
        for (long seed = 1; seed < 40; seed++) {
            Path real = Files.createDirectories(dir.resolve("real-" + seed));
            Path broken = Files.createDirectories(dir.resolve("broken-" + seed));
            List<Path> a = CausalWorldRun.run(real, Mode.CAUSAL, seed, 60, false, 10, CausalNode::new);
            List<Path> b = CausalWorldRun.run(broken, Mode.CAUSAL, seed, 60, false, 10, FifoGuardNode::new);
            int node = -1;
            int line = -1; // the file line of the first difference (1 is the header)
            for (int k = 0; k < a.size() && node < 0; k++) {
                List<String> x = Files.readAllLines(a.get(k));
                List<String> y = Files.readAllLines(b.get(k));
                for (int i = 1; i < Math.min(x.size(), y.size()); i++) {
                    if (!x.get(i).equals(y.get(i))) {
                        node = k;
                        line = i + 1;
                        break;
                    }
                }
            }
            if (node < 0) {
                continue;
            }
            Validation v = VALIDATOR.validate(b);
            assertThat(v.accepted()).as("seed %d: the broken core's run was accepted", seed).isFalse();
            Rejection.Tried at = tried(v);
            assertThat(at.origin()).as("seed %d\n%s", seed, v.report()).isEqualTo(b.get(node) + ":" + line);
            assertThat(at.text()).contains("\"action\":\"Deliver\"");
            return;
        }
        throw new AssertionError("no seed below 40 where the broken guard changes the run");
    }

    /** A second delivery of the same event, inserted right after the first: rejected there. */
    @Test
    void aSecondDeliveryInsertedByHandIsRejectedAtIt() {
        List<StepLogFile> logs = read(CausalWorldRun.run(dir, Mode.CAUSAL, 1, 60, false));
        StepLogFile n2 = logs.get(1);
        int i = indexOf(n2.steps(), "Deliver", 0);
        List<ObjectNode> edited = new ArrayList<>(n2.steps());
        edited.add(i + 1, n2.steps().get(i).deepCopy());
        logs.set(1, n2.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(n2.file() + ":" + (i + 3));
        assertThat(at.text()).contains("\"action\":\"Deliver\"");
    }

    /** A buffered receipt removed: the delivery of that copy, next in the log, is rejected. */
    @Test
    void aReceiptRemovedByHandIsRejectedAtTheDeliveryThatNeedsIt() {
        List<StepLogFile> logs = read(CausalWorldRun.run(dir, Mode.CAUSAL, 1, 60, false));
        StepLogFile n3 = logs.get(2);
        int i = 0;
        List<ObjectNode> s = n3.steps();
        while (!(s.get(i).path("action").asText().equals("Receive") && s.get(i).path("outcome").asText().equals("buffered")
                && s.get(i + 1).path("action").asText().equals("Deliver")
                && s.get(i + 1).path("seq").equals(s.get(i).path("seq"))
                && s.get(i + 1).path("origin").equals(s.get(i).path("origin")))) {
            i++;
        }
        List<ObjectNode> edited = new ArrayList<>(s);
        edited.remove(i);
        logs.set(2, n3.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(n3.file() + ":" + (i + 2));
        assertThat(at.text()).contains("\"action\":\"Deliver\"");
    }

    /** The guard of FIFO mode in causal mode: the seam {@link CausalNode#deliverable}. */
    static final class FifoGuardNode extends CausalNode {
        FifoGuardNode(CausalConfig c, Ticker t, StepLog log) {
            super(c, t, log);
        }

        @Override
        protected boolean deliverable(Event e) {
            return e.seq() == prefixClock().get(e.origin().index()) + 1;
        }
    }

    private static List<StepLogFile> read(List<Path> files) {
        List<StepLogFile> logs = new ArrayList<>();
        files.forEach(f -> logs.add(StepLogFile.read(f)));
        return logs;
    }

    private static int indexOf(List<ObjectNode> steps, String action, int from) {
        for (int i = from; i < steps.size(); i++) {
            if (steps.get(i).path("action").asText().equals(action)) {
                return i;
            }
        }
        throw new AssertionError("no " + action + " in the log");
    }

    /** The line no reachable state takes (the nodes' logs are merged into one sequence). */
    private static Rejection.Tried tried(Validation v) {
        assertThat(v.rejection()).as("%s", v.report()).isNotNull();
        assertThat(v.rejection().tried()).hasSize(1);
        return v.rejection().tried().get(0);
    }
}
