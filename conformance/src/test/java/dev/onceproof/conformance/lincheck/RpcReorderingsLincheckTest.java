package dev.onceproof.conformance.lincheck;

import dev.onceproof.conformance.lincheck.LincheckOptions.Suite;
import org.junit.jupiter.api.Test;

/**
 * Each link must be able to fail (DESIGN.md): the real {@link dev.onceproof.rpc.core.ConcurrentRpcServer}
 * with one step moved out of its per-key section (its package-private mutation seams), under the
 * operations and bounds of {@link ConcurrentRpcServerLincheckTest}, must be reported by model
 * checking or stress mode. Each test prints which mode caught it.
 */
class RpcReorderingsLincheckTest {

    /** CALL handled as get, SCMP receive, put: what the old separate racy control did, now in the real class. */
    public static class CallJudgedOutsideSection extends ResilientRpcLincheck {
        public CallJudgedOutsideSection() {
            super("CALL_JUDGED_OUTSIDE_SECTION");
        }
    }

    /** Truncated CALL judged on upper and the entry read outside conn's section (issue 13, third finding). */
    public static class TruncatedCallJudgedOutsideSection extends ResilientRpcLincheck {
        public TruncatedCallJudgedOutsideSection() {
            super("TRUNCATED_CALL_JUDGED_OUTSIDE_SECTION");
        }
    }

    /** GC removes the RPC entry in conn's section and SCMP's entry after it. */
    public static class ScmpEntryCollectedAfterSection extends ResilientRpcLincheck {
        public ScmpEntryCollectedAfterSection() {
            super("SCMP_ENTRY_COLLECTED_AFTER_SECTION");
        }
    }

    @Test
    void callJudgedOutsideSectionIsCaught() {
        FilterReorderingsLincheckTest.assertCaught(CallJudgedOutsideSection.class, Suite.RPC_RESILIENT);
    }

    @Test
    void truncatedCallJudgedOutsideSectionIsCaught() {
        FilterReorderingsLincheckTest.assertCaught(TruncatedCallJudgedOutsideSection.class, Suite.RPC_RESILIENT);
    }

    @Test
    void scmpEntryCollectedAfterSectionIsCaught() {
        FilterReorderingsLincheckTest.assertCaught(ScmpEntryCollectedAfterSection.class, Suite.RPC_RESILIENT);
    }
}
