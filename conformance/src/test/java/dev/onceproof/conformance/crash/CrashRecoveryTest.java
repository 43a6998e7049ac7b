package dev.onceproof.conformance.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.TestDepth;
import dev.onceproof.conformance.crash.CrashExperiment.Sabotage;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * At-most-once RPC across real process kills (paper 3.1: "a call is guaranteed to be executed at
 * most once even when failures occur such as a crash of the receiving module"), and the paper's
 * bound on what a crash costs (2.4: "even in the worst case we will accept all messages sent after
 * t_cr + beta"). The server is a separate JVM killed with SIGKILL; its journal is the evidence.
 */
class CrashRecoveryTest {

    @TempDir
    Path dir;

    /**
     * Kills in the build; 20 (the standard run, what the deep profile and {@code ./onceproof crash}
     * do) took 57.7 s of the crash execution's 99 s in a fresh-clone build, so the build kills half
     * as often (issue 18's budget). The two controls below run at their own sizes (8 and 2 kills)
     * either way, so the build still shows each defect caught.
     */
    private static final int KILLS = TestDepth.pick(10, 20);

    @Test
    @Timeout(240)
    void sigkillsNeverRunACallTwiceAndRejectNothingSentAfterCrashPlusBeta() throws Exception {
        CrashReport report = new CrashExperiment(
                CrashExperiment.Config.standard(42).with(KILLS, Sabotage.NONE), dir, System.out).run();
        report.print(System.out);

        assertThat(report.rows()).hasSize(KILLS);
        assertThat(report.doubleExecutions()).isEmpty();
        assertThat(report.doubleOps()).isEmpty();
        assertThat(report.repliedButNotExecuted()).isEmpty();
        assertThat(report.rows()).allSatisfy(r -> {
            assertThat(r.rejectedPastBound()).as("crash %d: rejected past t_cr + beta", r.crash()).isZero();
            assertThat(r.storedLatestMinusDead()).as("crash %d: stored latest - t_dead", r.crash())
                    .isLessThanOrEqualTo(report.config().beta());
            // Liveness: every restarted server accepts and runs new calls.
            assertThat(r.repliedAfterRestart()).as("crash %d: calls replied after restart", r.crash()).isPositive();
        });
        assertThat(report.beforeFirstCrash().unknown()).isZero();
        assertThat(report.safe()).isTrue();
    }

    @Test
    @Timeout(120)
    void losingStableStorageShowsUpAsDoubleExecutions() throws Exception {
        // Without the stored latest, a restarted server accepts retransmissions of calls it ran
        // before the crash: the test must see that in the journal.
        CrashReport report = new CrashExperiment(
                CrashExperiment.Config.standard(7).with(8, Sabotage.DISCARD_STABLE_STORAGE), dir, System.out).run();
        report.print(System.out);
        assertThat(report.doubleExecutions()).isNotEmpty();
        assertThat(report.safe()).isFalse();
    }

    @Test
    @Timeout(120)
    void latestFarPastTheCrashShowsUpAsRejectionsPastTheBound() throws Exception {
        CrashReport report = new CrashExperiment(
                CrashExperiment.Config.standard(9).with(2, Sabotage.LATEST_FAR_AHEAD), dir, System.out).run();
        report.print(System.out);
        assertThat(report.rows()).anyMatch(r -> r.rejectedPastBound() > 0);
        assertThat(report.safe()).isFalse();
    }
}
