package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * The negative control of {@link ConcurrentGatherServer} for Strategy 6: its push sync sent at
 * once while an aDeliver outcome is unknown ({@link ConcurrentGatherServer.Deferral#ANSWER_AT_ONCE}).
 * The client processes x from A and leaves (H[A] := its end time, uploaded to B); a tick later
 * A's push sync, stamped after H[A] but without x, reaches B before B reads the upload: A is
 * fresher than the history, B pulls nothing and delivers x again. Lincheck must report the
 * duplicate. Bounds and measurement in
 * {@link GatherLincheckOptions}.
 *
 * <p>Measured ({@link GatherLincheckBoundsMeasurement}): the targeted scenario catches it in model
 * checking already at 20 interleavings; stress mode did not in 1000 runs, random scenarios
 * alone did not in 10 x 100 (3 x 2). Model checking only, at 120 interleavings.
 */
public class PushSyncAtOnceLincheckTest extends TimedGatherLincheckBase {

    public PushSyncAtOnceLincheckTest() {
        super(Strategy.S6, false, ConcurrentGatherServer.AttemptLog.BEFORE_CALL,
                ConcurrentGatherServer.Deferral.ANSWER_AT_ONCE);
    }

    @Test
    void pushSyncAtOnceIsCaughtByModelChecking() {
        LincheckControls.assertCaught("PushSyncAtOnceLincheckTest", () -> LinChecker.check(
                PushSyncAtOnceLincheckTest.class,
                GatherLincheckOptions.controlModelChecking(PushSyncAtOnceLincheckTest.class, SequentialGather6.class)));
    }
}
