package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.Rejection;
import dev.onceproof.conformance.validate.StepLogFile;
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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Trace validation of the view change (issue 21): the step logs of impl's membership world
 * (MembershipScheduleProperties' seeded schedules, n1 crashed or falsely suspected and removed with
 * a flush, then the fair end) are behaviours of CausalMembership.tla, through
 * specs/causal/TraceCausalMembership.tla. The controls: the core without the freeze (its
 * {@code heldBack} seam, MutNoFreeze's defect) is rejected at its first line that differs from the
 * real core's, a Deliver of the removed node's event after its report; a second delivery inserted
 * by hand is rejected at it; a survivor's FlushReport removed by hand is rejected at the decision,
 * which needs every survivor's report; the coordinator's own log (ViewChange) with its decision
 * moved before a report's receipt is rejected at that receipt.
 */
class CausalMembershipValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    /** Seed 18: n1 crashes, forwards and an excluded copy; seed 4: n1 alive, removed by a false suspicion. */
    @ParameterizedTest
    @ValueSource(ints = {18, 4})
    void theMembershipWorldsLogsAreABehaviourOfCausalMembership(int seed) throws IOException {
        MembershipWorldRun.Result r = MembershipWorldRun.run(dir, seed, CausalNode::new);
        assertThat(r.violations()).isEmpty();
        String all = Files.readString(r.logs().get(1)) + Files.readString(r.logs().get(2));
        assertThat(all).contains("\"FlushReport\"", "\"DecideView\"", "\"InstallView\"", "\"excluded\"");
        if (seed == 18) {
            assertThat(all).contains("\"FlushForward\"");
            assertThat(Files.readString(r.logs().get(0))).contains("\"Crash\"");
        }
        Validation v = VALIDATOR.validate(r.logs());
        assertThat(v.accepted()).as("seed %d\n%s", seed, v.report()).isTrue();
        assertThat(v.spec()).isEqualTo("CausalMembership");
        assertThat(v.lines()).isGreaterThan(300);
    }

    /**
     * MutNoFreeze in the core: a survivor that keeps delivering the suspect's events after its
     * report. On the first seed where the property catches it, TLC rejects the broken run at the
     * first line where its logs leave the real core's, a Deliver that MayDeliver forbids.
     */
    @Test
    void aCoreWithoutTheFreezeIsRejectedAtItsFirstDeliveryAfterItsReport() throws IOException {
        for (int seed = 0; seed < 100; seed++) {
            Path real = Files.createDirectories(dir.resolve("real-" + seed));
            Path broken = Files.createDirectories(dir.resolve("broken-" + seed));
            MembershipWorldRun.Result b = MembershipWorldRun.run(broken, seed, NoFreezeNode::new);
            if (b.violations().isEmpty()) {
                continue;
            }
            List<Path> a = MembershipWorldRun.run(real, seed, CausalNode::new).logs();
            Validation v = VALIDATOR.validate(b.logs());
            assertThat(v.accepted()).as("seed %d: the core without the freeze was accepted", seed).isFalse();
            Rejection.Tried at = tried(v);
            assertThat(at.text()).as("seed %d\n%s", seed, v.report()).contains("\"action\":\"Deliver\"",
                    "\"origin\":\"n1\"");
            // The rejected line is the survivor's first line that differs from the real core's on the seed.
            int k = b.logs().indexOf(Path.of(at.origin().substring(0, at.origin().lastIndexOf(':'))));
            int line = Integer.parseInt(at.origin().substring(at.origin().lastIndexOf(':') + 1));
            assertThat(k).as("%s", at.origin()).isIn(1, 2);
            List<String> x = Files.readAllLines(a.get(k));
            List<String> y = Files.readAllLines(b.logs().get(k));
            assertThat(y.subList(1, line - 1)).isEqualTo(x.subList(1, line - 1));
            assertThat(y.get(line - 1)).isNotEqualTo(x.get(line - 1));
            return;
        }
        throw new AssertionError("no seed below 100 where the property catches the core without the freeze");
    }

    /** A second delivery of the same event, inserted right after the first: rejected there. */
    @Test
    void aSecondDeliveryInsertedByHandIsRejectedAtIt() {
        List<StepLogFile> logs = read(MembershipWorldRun.run(dir, 18, CausalNode::new).logs());
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

    /**
     * n3's FlushReport removed: the coordinator's receipt of it has no report to receive, so the
     * decision after it is never taken, and n2's learning of the decision is rejected.
     */
    @Test
    void aReportRemovedByHandIsRejectedAtTheDecision() {
        List<StepLogFile> logs = read(MembershipWorldRun.run(dir, 18, CausalNode::new).logs());
        StepLogFile n3 = logs.get(2);
        int i = indexOf(n3.steps(), "FlushReport", 0);
        List<ObjectNode> edited = new ArrayList<>(n3.steps());
        edited.remove(i);
        logs.set(2, n3.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.text()).as("%s", v.report()).contains("\"action\":\"DecideView\"");
        int decide = indexOf(logs.get(1).steps(), "DecideView", 0);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(logs.get(1).file() + ":" + (decide + 2));
    }

    /**
     * The coordinator's own log (ViewChange's) with its DecideView moved before its receipt of the
     * last report: a coordinator that decided without every survivor's report. Rejected at that
     * receipt, which the spec (and the real coordinator) takes only before the decision; in this
     * merge order both survivors' reports precede the decision, so the decision itself is taken.
     */
    @Test
    void aCoordinatorDecidingBeforeAReportIsRejected() {
        List<StepLogFile> logs = read(MembershipWorldRun.run(dir, 18, CausalNode::new).logs());
        StepLogFile coordinator = logs.get(logs.size() - 1);
        assertThat(coordinator.process()).isEqualTo("coordinator");
        int decide = indexOf(coordinator.steps(), "DecideView", 0);
        int lastReport = decide - 1;
        assertThat(coordinator.steps().get(lastReport).path("action").asText()).isEqualTo("FlushReport");
        List<ObjectNode> edited = new ArrayList<>(coordinator.steps());
        edited.add(lastReport, edited.remove(decide));
        logs.set(logs.size() - 1, coordinator.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, the coordinator's DecideView moved before its last report:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(coordinator.file() + ":" + (decide + 2));
        assertThat(at.text()).contains("\"action\":\"FlushReport\"", "\"coordinator\":true");
    }

    /** The survivor keeps delivering the suspect's events after its report: the seam {@link CausalNode#heldBack}. */
    static final class NoFreezeNode extends CausalNode {
        NoFreezeNode(CausalConfig c, Ticker t, StepLog log) {
            super(c, t, log);
        }

        @Override
        protected boolean heldBack(Event e) {
            return false;
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

    private static Rejection.Tried tried(Validation v) {
        assertThat(v.rejection()).as("%s", v.report()).isNotNull();
        assertThat(v.rejection().tried()).hasSize(1);
        return v.rejection().tried().get(0);
    }
}
