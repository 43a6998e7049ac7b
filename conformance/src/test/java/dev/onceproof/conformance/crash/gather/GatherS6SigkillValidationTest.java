package dev.onceproof.conformance.crash.gather;

import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.TestDepth;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 1 for Strategy 6's SIGKILL run, beside {@link GatherS5SigkillValidationTest}: the
 * servers' and the client's step logs in spec time (the client's history H on its own fsynced store,
 * uploaded at each connect), merged by GatherTimedKillRun, are a behaviour of ExactlyOnceS6Msg
 * (TraceExactlyOnceS6.tla); and with H[s] := OPEN not written at connect (control h-at-disconnect,
 * mutant M6-b's client) a kill mid-connection leaves an end time for s that the next server trusts:
 * rejected at that server's StartSession, whose stale set lacks s where the spec's holds it.
 */
class GatherS6SigkillValidationTest {

    static final TraceValidator VALIDATOR = GatherSigkillValidationTest.VALIDATOR;

    @TempDir
    Path dir;

    /** Strategy 6's run, short: a few kills (half on the connected client), a second of settling. */
    static GatherCrashConfig shortRun(long seed, int kills, int clientKills, GatherCrashConfig.Control control) {
        return new GatherCrashConfig(6, kills, seed, 300, 700, control, clientKills, 50, 5, 1_000, 20);
    }

    private Path run(GatherCrashConfig config, boolean control) throws Exception {
        return GatherSigkillValidationTest.runWithLogs(dir, config, control);
    }

    @Test
    @Timeout(240)
    void aStrategy6RunWithServersAndTheClientKilledLeavesLogsThatAreABehaviourOfTheSpec() throws Exception {
        Path logs = run(shortRun(3, 3, 50, GatherCrashConfig.Control.NONE), false);
        List<Path> files = GatherSigkillValidationTest.files(logs);
        assertThat(files.size()).as("three servers, a restart, the client").isGreaterThanOrEqualTo(5);
        String all = String.join("\n", files.stream().map(GatherSigkillValidationTest::read).toList());
        assertThat(all).contains("\"action\":\"PushSync\"", "\"action\":\"RecvPeerSync\"", "\"action\":\"StartSession\"",
                "\"action\":\"ADeliverOK\"", "\"action\":\"ClientLoseH\"", "\"now\":");
        Validation v = VALIDATOR.validate(files);
        System.out.println("Strategy 6, kills: " + v.summary());
        assertThat(v.accepted()).as(v.report()).isTrue();
    }

    /**
     * H written only at a clean end: every kill that can falls on the connected client (up to 10),
     * the run stopping at the first duplicate. The first session after such a kill at another server
     * trusts the killed connection's server from the old end time; the spec's H holds it OPEN.
     */
    @Test
    @Timeout(240)
    void aHistoryWrittenOnlyAtACleanEndIsRejectedAtTheStartSessionThatTrustsTheOldEnd() throws Exception {
        // Deep only: the build keeps the same seam's SIGKILL control,
        // GatherCrashTest#aHistoryWrittenOnlyAtACleanEndProcessesANoteTwice.
        assumeTrue(TestDepth.deep(), "deep only (-Pdeep)");
        Path logs = run(shortRun(7, 10, 100, GatherCrashConfig.Control.H_AT_DISCONNECT), true);
        Validation v = VALIDATOR.validate(GatherSigkillValidationTest.files(logs));
        System.out.println("Strategy 6 control, H written only at a clean end:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement()
                .satisfies(t -> assertThat(t.text()).contains("\"action\":\"StartSession\""));
    }
}
