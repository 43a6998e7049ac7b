package dev.onceproof.conformance.lincheck.causal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.SeqSet;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * The negative control for the membership steps: a report that reads what the node delivered of
 * x before it takes the lock and freezes x, instead of in the same locked step (what
 * {@link ConcurrentCausalNode#flushReport} guards against). A delivery of x's event between the
 * two is then missing from the report, so the flush would agree on less than this survivor
 * delivered (RemovedAgreement). Lincheck must see that no sequential order gives those results.
 */
public class RacyReportLincheckTest extends MembershipLincheckBase {

    /** Reads the report first, outside the lock, then freezes. */
    static final class RacyReport extends ConcurrentCausalNode {
        private final CausalNode core;

        RacyReport(CausalNode core, CausalWorld.Application app) {
            super(core, app);
            this.core = core;
        }

        @Override
        public SeqSet flushReport(NodeId x) {
            SeqSet early = core.deliveredOf(x);
            super.flushReport(x);
            return early;
        }
    }

    @Override
    ConcurrentCausalNode build(CausalNode core, CausalWorld.Application app) {
        return new RacyReport(core, app);
    }

    @Test
    void aReportReadBeforeTheFreezeIsCaught() {
        LincheckAssertionError error = assertThrows(LincheckAssertionError.class,
                () -> LinChecker.check(RacyReportLincheckTest.class,
                        CausalLincheckOptions.control(RacyReportLincheckTest.class, SequentialMembership.class,
                                CausalLincheckOptions.MEMBERSHIP_SCENARIOS)));
        String[] lines = error.getMessage().split("\n");
        String head = String.join("\n", java.util.Arrays.copyOf(lines, Math.min(lines.length, 30)));
        assertThat(error.getMessage()).as(head).contains("REPORT []");
        System.out.println("RacyReportLincheckTest: race caught as expected:\n" + head);
    }
}
