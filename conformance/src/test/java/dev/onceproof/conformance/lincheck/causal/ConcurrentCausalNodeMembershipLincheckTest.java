package dev.onceproof.conformance.lincheck.causal;

import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * Link 3 for the view change: {@link ConcurrentCausalNode}'s membership steps (report, decision,
 * install) beside receipts are linearizable with respect to {@link CausalNode}
 * ({@link SequentialMembership}), and the application sees causal order, each event once. The
 * control is {@link RacyReportLincheckTest}.
 */
public class ConcurrentCausalNodeMembershipLincheckTest extends MembershipLincheckBase {

    @Override
    ConcurrentCausalNode build(CausalNode core, CausalWorld.Application app) {
        return new ConcurrentCausalNode(core, app);
    }

    @Test
    void modelChecking() {
        LinChecker.check(ConcurrentCausalNodeMembershipLincheckTest.class,
                CausalLincheckOptions.modelChecking(ConcurrentCausalNodeMembershipLincheckTest.class,
                        SequentialMembership.class, CausalLincheckOptions.MEMBERSHIP_SCENARIOS));
    }
}
