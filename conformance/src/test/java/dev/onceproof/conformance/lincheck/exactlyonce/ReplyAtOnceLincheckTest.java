package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * A negative control of {@link ConcurrentGatherServer} for Strategy 4: the real class with its
 * deferral turned into an immediate answer ({@link ConcurrentGatherServer.Deferral#ANSWER_AT_ONCE}).
 * A's attempt for x is logged, the client processes x, and before A records the outcome the client
 * moves to B; B's gather asks A, A answers at once with the D of that moment (no x), and B delivers
 * x again. Lincheck must report the duplicate. Bounds and measurement in {@link GatherLincheckOptions}.
 *
 * <p>Measured ({@link GatherLincheckBoundsMeasurement}): the targeted scenario catches it in model
 * checking from 60 interleavings on (not at 50); stress mode did not in 1000 runs, random scenarios
 * alone did not in 10 x 100 (3 x 2). Model checking only, at 120 interleavings.
 */
public class ReplyAtOnceLincheckTest extends GatherLincheckBase {

    public ReplyAtOnceLincheckTest() {
        super(Strategy.S4, false, ConcurrentGatherServer.AttemptLog.BEFORE_CALL,
                ConcurrentGatherServer.Deferral.ANSWER_AT_ONCE);
    }

    @Test
    void replyAtOnceIsCaughtByModelChecking() {
        LincheckControls.assertCaught("ReplyAtOnceLincheckTest", () -> LinChecker.check(ReplyAtOnceLincheckTest.class,
                GatherLincheckOptions.controlModelChecking(ReplyAtOnceLincheckTest.class, SequentialGather4.class)));
    }
}
