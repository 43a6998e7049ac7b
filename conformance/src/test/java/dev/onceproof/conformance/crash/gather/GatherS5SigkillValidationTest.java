package dev.onceproof.conformance.crash.gather;

import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.TestDepth;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 1 for Strategy 5's SIGKILL run, beside {@link GatherSigkillValidationTest}: every
 * server and client JVM incarnation writes a step log in spec time (GatherStepLog: the cores on a
 * 10 ms unit clock read once per step, servers at offsets 0, 1, 2 units), and TLC checks the run's
 * logs, merged by (reading, µs written) with the spec's Tick steps put in (GatherTimedKillRun), against
 * ExactlyOnceS5Msg (TraceExactlyOnceS5.tla). The check fails where a safeguard is gone: a restart
 * that ignores the primitive's journal is rejected at its ServerRecover, and a client that forgets
 * on reboot that it must wait T_r (control reboot-forgets-end) at its first Connect after the kill.
 */
class GatherS5SigkillValidationTest {

    static final TraceValidator VALIDATOR = GatherSigkillValidationTest.VALIDATOR;

    @TempDir
    Path dir;

    /** Strategy 5's run, short: a few kills, a second of settling (a few hundred log lines). */
    static GatherCrashConfig shortRun(long seed, int kills, int clientKills, GatherCrashConfig.Control control) {
        return new GatherCrashConfig(5, kills, seed, 300, 700, control, clientKills, 30, 5, 1_000, 20);
    }

    private Path run(GatherCrashConfig config, boolean control) throws Exception {
        return GatherSigkillValidationTest.runWithLogs(dir, config, control);
    }

    /** Servers and the client killed (half the kills on the connected client): the logs are accepted. */
    @Test
    @Timeout(240)
    void aStrategy5RunWithServersAndTheClientKilledLeavesLogsThatAreABehaviourOfTheSpec() throws Exception {
        Path logs = run(shortRun(3, 3, 50, GatherCrashConfig.Control.NONE), false);
        List<Path> files = GatherSigkillValidationTest.files(logs);
        assertThat(files.size()).as("three servers, a restart, the client").isGreaterThanOrEqualTo(5);
        String all = String.join("\n", files.stream().map(GatherSigkillValidationTest::read).toList());
        assertThat(all).contains("\"action\":\"PeriodicSync\"", "\"action\":\"RecvPeerSync\"",
                "\"action\":\"StartSession\"", "\"action\":\"ADeliverOK\"", "\"now\":");
        Validation v = VALIDATOR.validate(files);
        System.out.println("Strategy 5, kills: " + v.summary());
        assertThat(v.accepted()).as(v.report()).isTrue();
    }

    /**
     * The control of {@link GatherSigkillValidationTest}'s, here: restarts that take every call a kill
     * left open for an error. The restart's ServerRecover (its D without a note the journal says was
     * processed) is where the log leaves the spec. Up to 8 kills, stopping at the first duplicate.
     */
    @Test
    @Timeout(240)
    void aRestartThatIgnoresThePrimitivesJournalIsRejectedAtItsRecovery() throws Exception {
        // Deep only: the build keeps the same seam's controls in GatherSigkillValidationTest (Strategy 4's
        // kill run, validated) and GatherCrashTest#aRestartThatIgnoresThePrimitivesLogProcessesANoteTwice.
        assumeTrue(TestDepth.deep(), "deep only (-Pdeep)");
        Path logs = run(shortRun(5, 8, 0, GatherCrashConfig.Control.RESOLVE_AS_ERROR), true);
        Validation v = VALIDATOR.validate(GatherSigkillValidationTest.files(logs));
        System.out.println("Strategy 5 control, restarts resolving every open call as an error:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.text()).contains("\"action\":\"ServerRecover\"");
            ObjectNode line = (ObjectNode) new ObjectMapper().readTree(t.text());
            assertThat(line.get("processed")).isNotEmpty();
            line.get("processed").forEach(n -> assertThat(line.get("D").toString()).doesNotContain(n.toString()));
        });
    }

    /**
     * The client's promise (L221): a rebooted S5 client must wait T_r from its reboot, because it
     * does not know when its last connection ended. With the control it connects as soon as it is
     * asked; every kill falls on the connected client, and the restarted client's first Connect (the
     * line after its ClientRecover, the kill's ClientCrash put before it) is where TLC stops: the
     * spec's lastEnd is the reboot's reading, and T_r has not passed.
     */
    @Test
    @Timeout(240)
    void aRebootedClientThatDoesNotWaitTrIsRejectedAtItsFirstConnect() throws Exception {
        // Deep only: the build keeps this defect's TLC mutant (exactlyonce-mutant-s5-reboot-forgets-end) and
        // its replay control (GatherBrokenCoreReplayTest#aStrategy5ClientThatForgetsItsPromiseAtARebootIsCaught).
        assumeTrue(TestDepth.deep(), "deep only (-Pdeep)");
        Path logs = run(shortRun(3, 3, 100, GatherCrashConfig.Control.REBOOT_FORGETS_END), true);
        Validation v = VALIDATOR.validate(GatherSigkillValidationTest.files(logs));
        System.out.println("Strategy 5 control, a rebooted client that does not wait T_r:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.text()).contains("\"action\":\"Connect\"");
            // the line right after a restarted client's ClientRecover: its file's line 3
            assertThat(t.origin()).matches(".*client-[2-9]\\.jsonl:3\\b.*");
        });
    }
}
