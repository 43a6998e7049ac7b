package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * Link 3 of the chain of trust (DESIGN.md) for Strategy 4: {@link ConcurrentGatherServer}, shared
 * by a client session (the gather, then aDeliver) and the handlers of other servers' D requests,
 * syncs and purge syncs, is linearizable with respect to the sequential core ({@link
 * SequentialGather4}), and no explored interleaving processes a note twice or calls aDeliver again
 * after a success (NoDuplicateDelivery, NoReattempt). Model checking explores the interleavings at
 * the monitor, its wait and the unlocked aDeliver call (the cores run atomically, see {@link
 * GatherScenarios#coresAtomic}); stress mode runs the same scenarios on real threads. Each mode runs
 * the targeted scenario (the client leaving A while A's call is out, B's gather asking A) and a
 * few random ones. The same scenario with the safeguards removed is caught: {@link
 * AttemptLoggedAfterCallLincheckTest}, {@link ReplyAtOnceLincheckTest}. Bounds in {@link
 * GatherLincheckOptions}.
 */
public class ConcurrentGatherServerLincheckTest extends GatherLincheckBase {

    public ConcurrentGatherServerLincheckTest() {
        super(Strategy.S4, false, ConcurrentGatherServer.AttemptLog.BEFORE_CALL);
    }

    @Test
    void modelCheckingLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentGatherServerLincheckTest.class,
                GatherLincheckOptions.modelChecking(ConcurrentGatherServerLincheckTest.class, SequentialGather4.class));
    }

    @Test
    void stressLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentGatherServerLincheckTest.class, GatherLincheckOptions.stress(ConcurrentGatherServerLincheckTest.class, SequentialGather4.class));
    }
}
