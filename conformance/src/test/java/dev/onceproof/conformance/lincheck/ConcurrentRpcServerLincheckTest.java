package dev.onceproof.conformance.lincheck;

import dev.onceproof.rpc.core.ConcurrentRpcServer;
import dev.onceproof.rpc.core.ServerOutcome;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.InMemoryStableStorage;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.junit.jupiter.api.Test;

/**
 * Link 3 of the chain of trust (DESIGN.md) for the RPC server: {@link ConcurrentRpcServer} is
 * linearizable with respect to the sequential {@link dev.onceproof.rpc.core.RpcServerCore}
 * ({@link SequentialRpc}), and no interleaving executes a call twice (Figure 3-1's at-most-once).
 * Operations are the spec's ReceiveCall (full and truncated), ReceiveReplyAck, Complete,
 * CollectGarbage(c) and a Tick of the server clock; the full collection pass is a sequence of
 * CollectGarbage(c) steps and is not itself one atomic step.
 */
public class ConcurrentRpcServerLincheckTest extends RpcLincheckBase {

    private final ConcurrentRpcServer server = new ConcurrentRpcServer(RpcLincheckScenario.CONFIG, clock,
            new InMemoryStableStorage(), RpcLincheckScenario.KAPPA);

    @Operation
    public ServerOutcome receiveCall(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return executed(conn, ts, server.receiveCall(RpcLincheckScenario.call(conn, ts)).outcome());
    }

    @Operation
    public ServerOutcome receiveTruncatedCall(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return server.receiveTruncatedCall(RpcLincheckScenario.truncatedCall(conn, ts)).outcome();
    }

    @Operation
    public ServerOutcome receiveReplyAck(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return server.receiveReplyAck(RpcLincheckScenario.replyAck(conn, ts)).outcome();
    }

    @Operation
    public ServerOutcome complete(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return server.complete(LincheckScenario.conn(conn), Timestamp.of(ts), RpcLincheckScenario.RESULT).outcome();
    }

    @Operation
    public boolean collectGarbage(@Param(name = "conn") int conn) {
        return server.collectGarbage(LincheckScenario.conn(conn));
    }

    @Test
    void linearizableAndNeverExecutesTwice() {
        LinChecker.check(ConcurrentRpcServerLincheckTest.class, LincheckOptions.rpcModelChecking());
    }
}
