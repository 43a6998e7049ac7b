package dev.onceproof.conformance.lincheck;

import org.jetbrains.kotlinx.lincheck.annotations.Operation;

/** The RPC server in the monotonic scheme, whose own mutator is FinishRecovery. */
public class MonotonicRpcLincheck extends RpcLincheckBase {

    /**
     * From {@link RpcLincheckScenario}'s world (c1@1 REPLYING and collectable, c2@1 COMPUTING, clock
     * 2): two copies of a new call; collection against a truncated retransmission and against a new
     * call; FinishRecovery after a restart against a pre-crash duplicate.
     */
    static final String[][] SCENARIOS = {
        {"", "receiveCall(1, 2)", "receiveCall(1, 2)", "receiveCall(1, 2)"},
        {"", "collectGarbage(1)", "receiveTruncatedCall(1, 1)", ""},
        {"", "collectGarbage()", "receiveCall(1, 2)", ""},
        {"restart(); tick()", "finishRecovery()", "receiveCall(1, 1)", "receiveCall(2, 1)"},
    };

    public MonotonicRpcLincheck() {
        this("NONE");
    }

    MonotonicRpcLincheck(String reordering) {
        super(RpcLincheckScenario.MONOTONIC, reordering);
    }

    /** Spec FinishRecovery; false where the step is not enabled. */
    @Operation
    public boolean finishRecovery() {
        return world.step(() -> {
            try {
                server().finishRecovery();
                return true;
            } catch (IllegalStateException notEnabled) {
                return false;
            }
        });
    }
}
