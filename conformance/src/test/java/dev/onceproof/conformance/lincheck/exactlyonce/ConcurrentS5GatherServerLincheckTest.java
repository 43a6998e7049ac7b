package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * Link 3 of the chain of trust for Strategy 5 (Delay Reconnect): {@link ConcurrentGatherServer}
 * over S5Server, shared by the client's session (a visit that the client's T_r promise may refuse,
 * the gather of the peers whose latest periodic sync is not fresh, then aDeliver) and the
 * handlers of the peer's D requests, periodic syncs and purge syncs, with the clock moved by an
 * operation, is linearizable with respect to {@link SequentialGather5} and processes no note
 * twice (NoDuplicateDelivery, NoReattempt). The safeguard under test: a periodic sync stamped with
 * its send time waits while an aDeliver outcome is unknown; without it ({@link PeriodicSyncAtOnceLincheckTest}) the
 * targeted scenario duplicates. Bounds in {@link GatherLincheckOptions}.
 */
public class ConcurrentS5GatherServerLincheckTest extends TimedGatherLincheckBase {

    public ConcurrentS5GatherServerLincheckTest() {
        super(Strategy.S5, false, ConcurrentGatherServer.AttemptLog.BEFORE_CALL);
    }

    @Test
    void modelCheckingLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentS5GatherServerLincheckTest.class,
                GatherLincheckOptions.modelChecking(ConcurrentS5GatherServerLincheckTest.class, SequentialGather5.class));
    }

    @Test
    void stressLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentS5GatherServerLincheckTest.class,
                GatherLincheckOptions.stress(ConcurrentS5GatherServerLincheckTest.class, SequentialGather5.class));
    }
}
