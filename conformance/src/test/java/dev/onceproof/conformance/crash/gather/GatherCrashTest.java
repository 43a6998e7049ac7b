package dev.onceproof.conformance.crash.gather;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Relaxed exactly-once (3.3.1, L185-193) for Strategies 4-6 across real SIGKILLs: three server JVMs
 * with fsynced stores and aDeliver journals, and the client JVM, killed and restarted while the
 * servers gather, sync and deliver. Each short fixed run must process no note twice and lose no
 * acknowledged note; each control, with one safeguard removed, must process a note twice.
 */
class GatherCrashTest {

    @TempDir
    Path dir;

    private GatherCrashReport run(GatherCrashConfig config, boolean control) throws Exception {
        GatherCrashExperiment experiment = new GatherCrashExperiment(config, GatherCrashExperiment.prepare(dir),
                System.out);
        if (control) {
            experiment.stopAtFirstDuplicate();
        }
        GatherCrashReport report = experiment.run();
        report.print(System.out);
        assertThat(report.failures()).as("the run itself").isEmpty();
        return report;
    }

    /** L211: the gather makes every earlier delivery known; the aDeliver log (Z9) survives the kill. */
    @Test
    @Timeout(120)
    void strategy4SurvivesKillsOfTheDeliveringServer() throws Exception {
        GatherCrashReport r = run(GatherCrashConfig.standard(4, 42).withKills(8), false);
        assertThat(r.serverKills()).isEqualTo(8);
        assertThat(r.processedTwice()).isEmpty();
        assertThat(r.ackedNotProcessed()).isEmpty();
        assertThat(r.reattempts()).isEmpty();
        // It exercised what it claims: gathers that pulled, deliveries, and a kill inside a call
        // (measured 3-5 of 8 kills with a call open).
        assertThat(r.pulls()).isPositive();
        assertThat(r.acked()).isGreaterThan(20);
        assertThat(r.killsMidCall()).isPositive();
        assertThat(r.safe()).isTrue();
        keptBounded(r);
    }

    /** Example 5: a fresh periodic sync replaces the pull; T_r kept by the rebooted client. */
    @Test
    @Timeout(120)
    void strategy5SurvivesServerKillsWithLossySyncs() throws Exception {
        GatherCrashReport r = run(GatherCrashConfig.standard(5, 42).withKills(6), false);
        assertThat(r.serverKills()).isEqualTo(6);
        assertThat(r.syncsDropped()).isPositive();
        assertThat(r.acked()).isGreaterThan(20);
        assertThat(r.safe()).isTrue();
        keptBounded(r);
    }

    /** Z17: H[s] := OPEN before the upload, so a client killed mid-connection makes the next server pull from s. */
    @Test
    @Timeout(120)
    void strategy6SurvivesClientKillsMidConnection() throws Exception {
        GatherCrashReport r = run(GatherCrashConfig.standard(6, 42).withKills(6).withClientKills(100), false);
        assertThat(r.clientKills()).isPositive();
        assertThat(r.acked()).isGreaterThan(20);
        assertThat(r.safe()).isTrue();
        keptBounded(r);
    }

    /**
     * Issue 19 item 1: the purge syncs (GatherNodeMain's periodic sync, handled by
     * GatherServer.recvPeerSync) keep every server's K to the notes not yet delivered everywhere.
     * Measured 9-45 notes after runs of 80-160 (seed 42, 13 runs); with the syncs merged and not purged
     * (recvSync, as the node did before) Strategy 5's run ended with K = 100 of 100.
     */
    private static void keptBounded(GatherCrashReport r) {
        assertThat(r.largestK()).as("the most notes a server's K holds after the run, of %d created",
                r.notesCreated()).isLessThan(r.notesCreated() / 2);
    }

    /** Mutant M4-d through ConcurrentGatherServer's AttemptLog.AFTER_CALL seam: a kill after the call, before the log. */
    @Test
    @Timeout(120)
    void callingBeforeTheAttemptIsLoggedProcessesANoteTwice() throws Exception {
        GatherCrashReport r = run(GatherCrashConfig.standard(4, 7).withKills(16)
                .withControl(GatherCrashConfig.Control.AFTER_CALL), true);
        assertThat(r.processedTwice()).isNotEmpty();
        assertThat(r.safe()).isFalse();
    }

    /** L193: the outcome must be read from the primitive's log; taking every unresolved call for an error repeats it. */
    @Test
    @Timeout(120)
    void aRestartThatIgnoresThePrimitivesLogProcessesANoteTwice() throws Exception {
        GatherCrashReport r = run(GatherCrashConfig.standard(5, 7).withKills(16)
                .withControl(GatherCrashConfig.Control.RESOLVE_AS_ERROR), true);
        assertThat(r.processedTwice()).isNotEmpty();
        assertThat(r.safe()).isFalse();
    }

    /** Mutant M6-b: H written only at a clean end leaves an old end time after a kill, and a server skips the pull. */
    @Test
    @Timeout(300)
    void aHistoryWrittenOnlyAtACleanEndProcessesANoteTwice() throws Exception {
        // At most 40 kills (the run stops at the first duplicate, so the cap costs time only when the
        // control is not caught): measured 5-15 kills to the first duplicate over seeds 21-26, 6 and 21
        // with syncs purging (issue 19; the run has no periodic purge sync, see the experiment) (it needs a
        // client kill mid-delivery, the lost push sync of that server, and the next connection at a
        // server that pulled from it after the previous end time).
        GatherCrashReport r = run(GatherCrashConfig.standard(6, 7).withKills(40).withClientKills(100)
                .withControl(GatherCrashConfig.Control.H_AT_DISCONNECT), true);
        assertThat(r.processedTwice()).isNotEmpty();
        assertThat(r.safe()).isFalse();
    }
}
