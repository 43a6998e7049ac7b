package dev.onceproof.conformance.lincheck;

import org.jetbrains.kotlinx.lincheck.annotations.Operation;

/** The RPC server in the resilient scheme (Fig. 3-1 on Fig. 2-2), whose own mutator is WriteLatest. */
public class ResilientRpcLincheck extends RpcLincheckBase {

    /**
     * From {@link RpcLincheckScenario}'s world (c1@1 REPLYING and collectable, c2@1 COMPUTING, clock
     * 2, latest 2): two copies of a new call; collection (one entry or the pass) against a truncated
     * retransmission, a new call and a duplicate; a completion against a duplicate and its
     * acknowledgement; WriteLatest against a call just above the old latest; a restart.
     */
    static final String[][] SCENARIOS = {
        {"", "receiveCall(1, 2)", "receiveCall(1, 2)", "receiveCall(1, 2)"},
        {"", "collectGarbage(1)", "receiveTruncatedCall(1, 1)", ""},
        {"", "collectGarbage(1)", "receiveCall(1, 2)", ""},
        {"", "collectGarbage()", "receiveCall(1, 1)", "receiveTruncatedCall(1, 1)"},
        {"", "complete(2, 1)", "receiveCall(2, 1); receiveReplyAck(2, 1)", ""},
        {"tick()", "writeLatest()", "receiveCall(2, 3)", ""},
        {"", "restart()", "receiveCall(2, 2); complete(2, 2)", "receiveCall(2, 2)"},
    };

    public ResilientRpcLincheck() {
        this("NONE");
    }

    ResilientRpcLincheck(String reordering) {
        super(RpcLincheckScenario.RESILIENT, reordering);
    }

    /** Spec WriteLatest: latest after the step. */
    @Operation
    public long writeLatest() {
        return world.stillClockStep(() -> server().writeLatest());
    }
}
