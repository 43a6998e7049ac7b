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
 * Trace validation of the flush restart (issue 21, causal part): the step logs of impl's restart
 * world (RestartScheduleProperties' seeded schedules over four nodes: a second suspicion mid-flush,
 * the coordinator's crash mid-flush, then the fair end), one per node and the coordinator's, are
 * behaviours of CausalMembershipRestart.tla, through specs/causal/TraceCausalMembershipRestart.tla.
 * The controls, each rejected at the line where it goes wrong: a core that delivers by a decision a
 * restart superseded (its {@code awaitingDecision} seam, MutDeliverAfterNewReport's defect), at its
 * first line that differs from the real core's; a coordinator whose restart keeps the superseded
 * round's reports (ViewChange's {@code restartKeepsReports} seam, MutRestartKeepsReports' defect),
 * at its decision; a second delivery
 * inserted by hand; the coordinator's restart (its Suspect that restarted a running flush) removed
 * by hand, at the coordinator's next line (its receipt of a report to the round that no longer
 * started); the first line of a survivor's two-line report to the restarted round removed by hand,
 * at the second.
 */
class CausalRestartValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    /**
     * Seed 119: n2 coordinates n1's removal, decides and crashes before the survivors install; n3
     * suspects it, the flush restarts for {n1, n2} under n3, every survivor reports again and the
     * decision is taken again, now agreeing on n2's event (stored:
     * validate/causal/world-restart-seed119). Seed 44: n1 coordinates the crashed n2's removal and is
     * suspected falsely after its decision; it goes on broadcasting, and its copies are refused as
     * excluded once the restarted flush removed it.
     */
    @ParameterizedTest
    @ValueSource(ints = {119, 44})
    void theRestartWorldsLogsAreABehaviourOfCausalMembershipRestart(int seed) throws IOException {
        RestartWorldRun.Result r = RestartWorldRun.run(dir, seed, CausalNode::new);
        assertThat(r.violations()).isEmpty();
        assertThat(r.restartedAfterDecision()).isTrue();
        String coordinator = Files.readString(r.logs().get(r.logs().size() - 1));
        assertThat(coordinator).contains("\"restart\":true", "\"flushing\":[\"n1\",\"n2\"]");
        assertThat(Files.readString(r.logs().get(1))).contains("\"Crash\"");
        if (seed == 44) {
            assertThat(Files.readString(r.logs().get(0))).doesNotContain("\"Crash\"");
            assertThat(Files.readString(r.logs().get(2))).contains("\"excluded\"");
        }
        Validation v = VALIDATOR.validate(r.logs());
        assertThat(v.accepted()).as("seed %d\n%s", seed, v.report()).isTrue();
        assertThat(v.spec()).isEqualTo("CausalMembershipRestart");
        assertThat(v.lines()).isGreaterThan(300);
    }

    /**
     * MutDeliverAfterNewReport in the core: a survivor that, having reported to a restarted round,
     * delivers an event by the decision the restart superseded. Seed 5054 is the first of 20,000
     * seeded schedules on which the seam changes what a node delivers (RestartScheduleProperties
     * does not catch it there: the new decision happens to agree on the event), and TLC rejects the
     * broken run at the first line where its logs leave the real core's, a Deliver that MayDeliver
     * forbids (the origin awaits the new decision); the real core's run of the seed is accepted.
     */
    @Test
    void aCoreDeliveringByASupersededDecisionIsRejectedAtThatDelivery() throws IOException {
        int seed = 5054;
        Path real = Files.createDirectories(dir.resolve("real"));
        Path broken = Files.createDirectories(dir.resolve("broken"));
        List<Path> a = RestartWorldRun.run(real, seed, CausalNode::new).logs();
        List<Path> b = RestartWorldRun.run(broken, seed, SupersededDecisionNode::new).logs();
        assertThat(VALIDATOR.validate(a).accepted()).as("the real core on seed %d", seed).isTrue();
        Validation v = VALIDATOR.validate(b);
        System.out.println("Control, the core delivering by a superseded decision:\n" + v.report());
        assertThat(v.accepted()).as("the core delivering by a superseded decision was accepted").isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.text()).as("%s", v.report()).contains("\"action\":\"Deliver\"");
        // The rejected line is the node's first line that differs from the real core's on the seed.
        int k = b.indexOf(Path.of(at.origin().substring(0, at.origin().lastIndexOf(':'))));
        int line = Integer.parseInt(at.origin().substring(at.origin().lastIndexOf(':') + 1));
        assertThat(k).as("%s", at.origin()).isBetween(0, 3);
        List<String> x = Files.readAllLines(a.get(k));
        List<String> y = Files.readAllLines(b.get(k));
        assertThat(y.subList(1, line - 1)).isEqualTo(x.subList(1, line - 1));
        assertThat(y.get(line - 1)).isNotEqualTo(x.get(line - 1));
    }

    /** Delivers by the last decision it learnt though it reported since: the seam {@link CausalNode#awaitingDecision}. */
    static final class SupersededDecisionNode extends CausalNode {
        SupersededDecisionNode(CausalConfig c, Ticker t, StepLog log) {
            super(c, t, log);
        }

        @Override
        protected boolean awaitingDecision(int k) {
            return false;
        }
    }

    /**
     * MutRestartKeepsReports in the coordinator (ViewChange's {@code restartKeepsReports} seam): the
     * restart after the decision on n1 keeps n3's and n4's reports to the superseded round, so the
     * new round decides at once, from reports that say nothing of n2, and agrees on none of n2's
     * events (the real run agrees on n2's seq 1). Rejected at that decision on n2: the spec's
     * restart asks every survivor to report again, and none has, so no survivor can learn a
     * decision of the new round (the merge puts n3's learning of it first: n3 never reported to the
     * round that took it, and no consistent order places it).
     */
    @Test
    void aCoordinatorDecidingFromTheSupersededRoundsReportsIsRejectedAtItsDecision() {
        RestartWorldRun.Result r = RestartWorldRun.run(dir, 119, CausalNode::new, new ReportKeepingViewChange());
        assertThat(r.violations()).as("the end-state property on the broken coordinator's run").isNotEmpty();
        Validation v = VALIDATOR.validate(r.logs());
        System.out.println("Control, a restart that keeps the superseded round's reports:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.text()).as("%s", v.report()).contains("\"action\":\"DecideView\"", "\"target\":\"n2\"",
                "\"seqs\":[]");
    }

    /** Keeps the old round's reports on a restart: the seam {@link ViewChange#restartKeepsReports}. */
    static final class ReportKeepingViewChange extends ViewChange {
        ReportKeepingViewChange() {
            super(4);
        }

        @Override
        boolean restartKeepsReports() {
            return true;
        }
    }

    /** A second delivery of the same event, inserted right after the first: rejected there. */
    @Test
    void aSecondDeliveryInsertedByHandIsRejectedAtIt() {
        List<StepLogFile> logs = read(RestartWorldRun.run(dir, 119, CausalNode::new).logs());
        StepLogFile n3 = logs.get(2);
        int i = indexOf(n3.steps(), "Deliver", 0);
        List<ObjectNode> edited = new ArrayList<>(n3.steps());
        edited.add(i + 1, n3.steps().get(i).deepCopy());
        logs.set(2, n3.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, a Deliver inserted again:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(n3.file() + ":" + (i + 3));
        assertThat(at.text()).contains("\"action\":\"Deliver\"");
    }

    /**
     * The coordinator's restart removed: its Suspect of n2 after its decision on n1's removal. Its
     * next line, the receipt of n3's report to the restarted round, is then a report on a flush
     * already decided, which the spec (and the real coordinator) takes only before the decision:
     * rejected there, the line right after the removed one.
     */
    @Test
    void theRestartRemovedByHandIsRejectedAtTheCoordinatorsNextLine() {
        List<StepLogFile> logs = read(RestartWorldRun.run(dir, 119, CausalNode::new).logs());
        StepLogFile coordinator = logs.get(logs.size() - 1);
        int i = indexOf(coordinator.steps(), "Suspect", 0);
        while (!coordinator.steps().get(i).path("restart").asBoolean()) {
            i = indexOf(coordinator.steps(), "Suspect", i + 1);
        }
        List<ObjectNode> edited = new ArrayList<>(coordinator.steps());
        edited.remove(i);
        logs.set(logs.size() - 1, coordinator.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, the coordinator's restart removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(coordinator.file() + ":" + (i + 2));
        assertThat(at.text()).contains("\"action\":\"FlushReport\"", "\"coordinator\":true");
    }

    /**
     * A survivor's report to the restarted round is two lines, one per node it removes, and the
     * spec's one FlushReport step is taken at the first. With that line removed by hand, the second
     * (n3's report on n2) heads no report: rejected there, the line right after the removed one.
     */
    @Test
    void aReportsFirstLineRemovedByHandIsRejectedAtItsSecond() {
        List<StepLogFile> logs = read(RestartWorldRun.run(dir, 119, CausalNode::new).logs());
        StepLogFile n3 = logs.get(2);
        int i = indexOf(n3.steps(), "FlushReport", 0);
        while (n3.steps().get(i).path("targets").size() < 2) {
            i = indexOf(n3.steps(), "FlushReport", i + 1);
        }
        assertThat(n3.steps().get(i + 1).path("target").asText()).isEqualTo("n2");
        List<ObjectNode> edited = new ArrayList<>(n3.steps());
        edited.remove(i);
        logs.set(2, n3.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, the first line of n3's report to the restarted round removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(n3.file() + ":" + (i + 2));
        assertThat(at.text()).contains("\"action\":\"FlushReport\"", "\"target\":\"n2\"");
    }

    static List<StepLogFile> read(List<Path> files) {
        List<StepLogFile> logs = new ArrayList<>();
        files.forEach(f -> logs.add(StepLogFile.read(f)));
        return logs;
    }

    static int indexOf(List<ObjectNode> steps, String action, int from) {
        for (int i = from; i < steps.size(); i++) {
            if (steps.get(i).path("action").asText().equals(action)) {
                return i;
            }
        }
        throw new AssertionError("no " + action + " in the log after line " + from);
    }

    static Rejection.Tried tried(Validation v) {
        assertThat(v.rejection()).as("%s", v.report()).isNotNull();
        assertThat(v.rejection().tried()).hasSize(1);
        return v.rejection().tried().get(0);
    }
}
