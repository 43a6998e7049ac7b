package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * The negative control of {@link ConcurrentGatherServer} for Strategy 5: its periodic sync sent at
 * once while an aDeliver outcome is unknown ({@link ConcurrentGatherServer.Deferral#ANSWER_AT_ONCE}).
 * The client processes x from A and leaves; a tick later A's periodic sync, stamped now but
 * without x, reaches B; the client's next visit (T_r has passed) finds A fresh at B, B pulls
 * nothing and delivers x again. Lincheck must report the duplicate. Bounds and measurement in
 * {@link GatherLincheckOptions}.
 *
 * <p>Measured ({@link GatherLincheckBoundsMeasurement}): the targeted scenario catches it in model
 * checking from 60 interleavings on (not at 50); stress mode did not in 1000 runs, random scenarios
 * alone did not in 10 x 100 (3 x 2). Model checking only, at 120 interleavings.
 */
public class PeriodicSyncAtOnceLincheckTest extends TimedGatherLincheckBase {

    public PeriodicSyncAtOnceLincheckTest() {
        super(Strategy.S5, false, ConcurrentGatherServer.AttemptLog.BEFORE_CALL,
                ConcurrentGatherServer.Deferral.ANSWER_AT_ONCE);
    }

    @Test
    void periodicSyncAtOnceIsCaughtByModelChecking() {
        LincheckControls.assertCaught("PeriodicSyncAtOnceLincheckTest", () -> LinChecker.check(
                PeriodicSyncAtOnceLincheckTest.class,
                GatherLincheckOptions.controlModelChecking(PeriodicSyncAtOnceLincheckTest.class, SequentialGather5.class)));
    }
}
