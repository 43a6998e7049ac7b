package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * Link 3 of the chain of trust for Strategy 5 (Connect History): {@link ConcurrentGatherServer}
 * over S6Server, shared by the client's session (a visit that uploads the client's history H,
 * the gather of the peers the history makes stale, then aDeliver) and the
 * handlers of the peer's D requests, push syncs and purge syncs, with the clock moved by an
 * operation, is linearizable with respect to {@link SequentialGather6} and processes no note
 * twice (NoDuplicateDelivery, NoReattempt). The safeguard under test: a push sync stamped with
 * its send time waits while an aDeliver outcome is unknown; without it ({@link PushSyncAtOnceLincheckTest}) the
 * targeted scenario duplicates. Bounds in {@link GatherLincheckOptions}.
 */
public class ConcurrentS6GatherServerLincheckTest extends TimedGatherLincheckBase {

    public ConcurrentS6GatherServerLincheckTest() {
        super(Strategy.S6, false, ConcurrentGatherServer.AttemptLog.BEFORE_CALL);
    }

    @Test
    void modelCheckingLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentS6GatherServerLincheckTest.class,
                GatherLincheckOptions.modelChecking(ConcurrentS6GatherServerLincheckTest.class, SequentialGather6.class));
    }

    @Test
    void stressLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentS6GatherServerLincheckTest.class,
                GatherLincheckOptions.stress(ConcurrentS6GatherServerLincheckTest.class, SequentialGather6.class));
    }
}
