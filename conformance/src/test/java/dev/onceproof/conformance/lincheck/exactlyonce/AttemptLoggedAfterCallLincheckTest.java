package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * The negative control of {@link ConcurrentGatherServer}: the real class with its aDeliver attempt
 * logged after the call instead of before ({@link ConcurrentGatherServer.AttemptLog#AFTER_CALL};
 * mutant M4-d of the notes, the aDeliver outcome and the D update split, Z9). While A's client
 * processes x, nothing at A shows it: the client moves to B, B's gather asks A for D, A answers
 * at once (nothing is unresolved) without x, and B delivers x again. Lincheck must report it.
 * Bounds in {@link GatherLincheckOptions}, measured by {@link GatherLincheckBoundsMeasurement}:
 * model checking catches it; stress mode did not in 60 scenarios x 100 runs (3 x 2), so there is
 * no stress test of it.
 */
public class AttemptLoggedAfterCallLincheckTest extends GatherLincheckBase {

    public AttemptLoggedAfterCallLincheckTest() {
        super(GatherConfig.Strategy.S4, false, ConcurrentGatherServer.AttemptLog.AFTER_CALL);
    }

    @Test
    void attemptLoggedAfterCallIsCaughtByModelChecking() {
        LincheckControls.assertCaught("AttemptLoggedAfterCallLincheckTest", () -> LinChecker.check(
                AttemptLoggedAfterCallLincheckTest.class,
                GatherLincheckOptions.controlModelChecking(AttemptLoggedAfterCallLincheckTest.class, SequentialGather4.class)));
    }
}
