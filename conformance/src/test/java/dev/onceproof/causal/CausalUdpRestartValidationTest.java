package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.conformance.validate.Rejection;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.conformance.validate.StepLogFile;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for the restarted flush over real UDP (issue 21, causal; issue 19 item 3): the
 * step logs of {@link UdpRestartRun} (impl's ViewRestartOverUdpTest with logs), the four cores' and
 * the coordinators' (n1's, and n2's once it takes over), are behaviours of
 * CausalMembershipRestart.tla through TraceCausalMembershipRestart.tla.
 *
 * <p>The controls: the takeover run with n2's core broken through the {@code heldBack} seam (no
 * freeze, MutNoFreeze's defect), which delivers n4's late events after its report, rejected at such
 * a Deliver; and, on the stored takeover run (validate/causal/udp-takeover-seed17), a second
 * delivery inserted and the first line of a report to the restarted round removed by hand, each
 * rejected at its line, and the taker-over's Suspect removed, refused at the line it leaves first;
 * on the stored run whose taker-over missed the change (validate/causal/udp-missed-takeover-seed17),
 * the taker-over's report on the target it forgets inserted, rejected at its Suspect.
 */
class CausalUdpRestartValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    @Test
    void aTakeoverFromACrashedCoordinatorOverUdpIsABehaviourOfCausalMembershipRestart() throws Exception {
        UdpRestartRun.Result r = UdpRestartRun.run(dir, UdpRestartRun.N1, 4, 20_000, CausalNode::new);
        assertThat(r.done()).as("%s", r).isTrue();
        assertThat(r.takeovers()).isEqualTo(1);
        Validation v = VALIDATOR.validate(r.logs());
        System.out.println("UDP restart, coordinator crashed: " + v.summary());
        assertThat(v.accepted()).as("%s", v.report()).isTrue();
        assertThat(v.spec()).isEqualTo("CausalMembershipRestart");
        // How the stored regression run (validate/causal/udp-takeover-seed17) was made: -Dcausal.keepLogs=DIR.
        String keep = System.getProperty("causal.keepLogs");
        if (keep != null) {
            Files.createDirectories(Path.of(keep));
            for (Path f : r.logs()) {
                Files.copy(f, Path.of(keep).resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * Issue 21 item 6, once a finding: impl's
     * aCoordinatorThatMissedTheChangeRestartsForItFromASurvivorsReport. n2 never heard of n1's flush
     * on n4 (its flush requests dropped), n3 reported on it, n1 crashed; n2 takes over with a flush
     * on n1 alone (ViewChange.resume from its own member state, whose unfinished change is none),
     * and restarts for {n1, n4} only when n3's refusal brings n3's report on n4. The spec's
     * TakeOver is that first step (the taker-over forgets the targets it never reported on), the
     * restart a Suspect of n4: the stored log (validate/causal/udp-missed-takeover-seed17, which
     * CausalTraceValidationTest validates too) is accepted.
     */
    @Test
    void aTakeoverThatMissedTheChangeIsABehaviourOfCausalMembershipRestart() {
        Validation v = VALIDATOR.validateLogs(stored(MISSED));
        System.out.println("A takeover that missed the change: " + v.summary());
        assertThat(v.accepted()).as("%s", v.report()).isTrue();
    }

    /**
     * The control of TakeOver's guard (a taker-over forgets only targets it never reported on): n2's
     * report on n4 to n1's round inserted by hand (n1's report line, as n2, before n2's first report,
     * with the seqs of n4 n2 had delivered, 1-3). n2 then knows n4 when it takes over, so its flush on
     * n1 alone forgets a target it reported on: rejected at the taker-over's first Suspect.
     */
    @Test
    void aTakeoverForgettingATargetItReportedOnIsRejectedAtItsSuspect() {
        List<StepLogFile> logs = stored(MISSED);
        StepLogFile n1 = logs.get(indexOfLog(logs, "n1", MISSED));
        ObjectNode report = n1.steps().get(CausalRestartValidationTest.indexOf(n1.steps(), "FlushReport", 0)).deepCopy();
        assertThat(report.path("targets").toString()).isEqualTo("[\"n4\"]");
        report.put("node", "n2");
        int k = indexOfLog(logs, "n2", MISSED);
        StepLogFile n2 = logs.get(k);
        int i = CausalRestartValidationTest.indexOf(n2.steps(), "FlushReport", 0);
        List<ObjectNode> edited = new ArrayList<>(n2.steps());
        edited.add(i, report);
        logs.set(k, n2.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, the taker-over had reported on the target it forgets:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = CausalRestartValidationTest.tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(MISSED.resolve("coordinator-n2.jsonl") + ":2");
        assertThat(at.text()).contains("\"action\":\"Suspect\"", "\"target\":\"n1\"", "\"flushing\":[\"n1\"]");
    }

    @Test
    void aTakeoverAfterTheDecisionOverUdpIsABehaviourOfCausalMembershipRestart() throws Exception {
        UdpRestartRun.Result r = UdpRestartRun.run(dir, UdpRestartRun.N1, 4, 20_000, CausalNode::new,
                UdpRestartRun.Scenario.AFTER_DECISION);
        assertThat(r.done()).as("%s", r).isTrue();
        assertThat(r.takeovers()).isEqualTo(1);
        Validation v = VALIDATOR.validate(r.logs());
        System.out.println("UDP restart after the decision: " + v.summary());
        assertThat(v.accepted()).as("%s", v.report()).isTrue();
        String keep = System.getProperty("causal.keepDecided");
        if (keep != null) {
            Files.createDirectories(Path.of(keep));
            for (Path f : r.logs()) {
                Files.copy(f, Path.of(keep).resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    @Test
    void aRestartAfterACrashedSurvivorOverUdpIsABehaviourOfCausalMembershipRestart() throws Exception {
        UdpRestartRun.Result r = UdpRestartRun.run(dir, UdpRestartRun.N3, 4, 20_000, CausalNode::new);
        assertThat(r.done()).as("%s", r).isTrue();
        assertThat(r.restarts()).isEqualTo(1);
        Validation v = VALIDATOR.validate(r.logs());
        System.out.println("UDP restart, survivor crashed: " + v.summary());
        assertThat(v.accepted()).as("%s", v.report()).isTrue();
    }

    /**
     * n2's core without the freeze: it takes over from the crashed n1 and, once it reported on the
     * restarted round {n1, n4}, its network lets n4's late events through; it delivers them, which
     * the spec forbids after its report (n4 is frozen, awaiting the new decision). The run never
     * ends (n3 holds them back and the decision leaves them out), so it stops after 5 s.
     */
    @Test
    void aCoreWithoutTheFreezeOverUdpIsRejectedAtItsDeliveryAfterItsReport() throws Exception {
        // The defect shows only in a run whose schedule lets n4's late events reach the broken n2
        // after its report, which real UDP timing does not always give (with four events a node,
        // 2 of 5 runs at load 3-10 did not; with six, 1 of 6): up to three runs, each in its own
        // folder, until one does. The verdict below is asserted on that run alone.
        UdpRestartRun.Result r = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            Path run = Files.createDirectories(dir.resolve("attempt-" + attempt));
            r = UdpRestartRun.run(run, UdpRestartRun.N1, 6, 5_000, CausalMembershipValidationTest.NoFreezeNode::new);
            if (UdpRestartRun.seqsOf(r.delivered().get(UdpRestartRun.N2), UdpRestartRun.N4).stream().anyMatch(q -> q > 3)) {
                break;
            }
            System.out.println("Control, no freeze over UDP: run " + attempt + " gave n2 no late event of n4; again");
        }
        assertThat(UdpRestartRun.seqsOf(r.delivered().get(UdpRestartRun.N2), UdpRestartRun.N4))
                .as("the broken n2 delivered a late event of n4 in one of three runs").anyMatch(q -> q > 3);
        Validation v = VALIDATOR.validate(r.logs());
        System.out.println("Control, no freeze over UDP with a takeover:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = CausalRestartValidationTest.tried(v);
        assertThat(at.text()).contains("\"action\":\"Deliver\"", "\"node\":\"n2\"", "\"origin\":\"n4\"");
    }

    /** A second delivery of an event, inserted right after n2's first Deliver: rejected there. */
    @Test
    void aSecondDeliveryInsertedByHandIsRejectedAtIt() {
        List<StepLogFile> logs = stored();
        int k = indexOfLog(logs, "n2");
        StepLogFile n2 = logs.get(k);
        int i = CausalRestartValidationTest.indexOf(n2.steps(), "Deliver", 0);
        List<ObjectNode> edited = new ArrayList<>(n2.steps());
        edited.add(i + 1, n2.steps().get(i).deepCopy());
        logs.set(k, n2.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, a Deliver inserted again:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = CausalRestartValidationTest.tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(n2.file() + ":" + (i + 3));
        assertThat(at.text()).contains("\"action\":\"Deliver\"");
    }

    /**
     * The first line of n3's report to the restarted round {n1, n4} removed by hand: the second (its
     * report on n4) heads no report, rejected there, the line right after the removed one.
     */
    @Test
    void aReportsFirstLineRemovedByHandIsRejectedAtItsSecond() {
        List<StepLogFile> logs = stored();
        int k = indexOfLog(logs, "n3");
        StepLogFile n3 = logs.get(k);
        int i = CausalRestartValidationTest.indexOf(n3.steps(), "FlushReport", 0);
        while (n3.steps().get(i).path("targets").size() < 2) {
            i = CausalRestartValidationTest.indexOf(n3.steps(), "FlushReport", i + 1);
        }
        assertThat(n3.steps().get(i + 1).path("target").asText()).isEqualTo("n4");
        List<ObjectNode> edited = new ArrayList<>(n3.steps());
        edited.remove(i);
        logs.set(k, n3.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, the first line of n3's report to the restarted round removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = CausalRestartValidationTest.tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(n3.file() + ":" + (i + 2));
        assertThat(at.text()).contains("\"action\":\"FlushReport\"", "\"target\":\"n4\"");
    }

    /**
     * The taker-over's first step removed: n2's Suspect of n1, which restarts the flush on n4 for
     * {n1, n4}. Its log then starts with a receipt of a report, so it cannot be placed after the
     * first coordinator's as the step that took the role over: refused at that line, naming it.
     */
    @Test
    void theTakeoversSuspectRemovedByHandIsRefusedAtTheLogsFirstLine() {
        List<StepLogFile> logs = stored();
        int k = indexOfLog(logs, "coordinator-n2");
        StepLogFile c = logs.get(k);
        assertThat(c.steps().get(0).path("action").asText()).isEqualTo("Suspect");
        assertThat(c.steps().get(0).path("restart").asBoolean()).isTrue();
        List<ObjectNode> edited = new ArrayList<>(c.steps());
        edited.remove(0);
        logs.set(k, c.withSteps(edited));
        assertThatThrownBy(() -> VALIDATOR.validateLogs(logs))
                .hasMessageContaining(c.file() + ":2: a coordinator's log starts with its Suspect");
    }

    static final Path STORED = TestValidators.REPO.root()
            .resolve("conformance/src/test/resources/validate/causal/udp-takeover-seed17");
    static final Path MISSED = TestValidators.REPO.root()
            .resolve("conformance/src/test/resources/validate/causal/udp-missed-takeover-seed17");

    private static List<StepLogFile> stored() {
        return stored(STORED);
    }

    private static List<StepLogFile> stored(Path dir) {
        try (var files = Files.list(dir)) {
            return CausalRestartValidationTest.read(files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static int indexOfLog(List<StepLogFile> logs, String name) {
        return indexOfLog(logs, name, STORED);
    }

    private static int indexOfLog(List<StepLogFile> logs, String name, Path dir) {
        for (int k = 0; k < logs.size(); k++) {
            if (logs.get(k).file().getFileName().toString().equals(name + ".jsonl")) {
                return k;
            }
        }
        throw new AssertionError("no " + name + ".jsonl in " + dir);
    }
}
