package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * {@link ConcurrentGatherServerLincheckTest} for Strategy 6: the same class under test over the
 * Connect History core, the client uploading its history (UNKNOWN at first: a full pull, then
 * only the servers it visited), syncs racing the gathers. Sequential specification
 * {@link SequentialGather6}.
 */
public class ConcurrentGatherServer6LincheckTest extends GatherLincheckBase {

    public ConcurrentGatherServer6LincheckTest() {
        super(GatherConfig.Strategy.S6, false, ConcurrentGatherServer.AttemptLog.BEFORE_CALL);
    }

    @Test
    void modelCheckingLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentGatherServer6LincheckTest.class,
                GatherLincheckOptions.modelChecking(SequentialGather6.class));
    }

    @Test
    void stressLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentGatherServer6LincheckTest.class, GatherLincheckOptions.stress(SequentialGather6.class));
    }
}
