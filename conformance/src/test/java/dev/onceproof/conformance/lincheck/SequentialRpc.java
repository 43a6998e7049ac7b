package dev.onceproof.conformance.lincheck;

import dev.onceproof.rpc.core.RpcServerCore;
import dev.onceproof.rpc.core.ServerOutcome;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.InMemoryStableStorage;

/**
 * Lincheck's sequential specification for the RPC server: the deterministic {@link RpcServerCore}
 * over {@link dev.onceproof.scmp.ScmpServer}, which trace replay ties to RPC.tla. Method names and
 * parameters match the concurrent test classes; results are the step's outcome, compared by equals.
 */
public class SequentialRpc {

    private final ManualInstantSource clock = new ManualInstantSource(RpcLincheckScenario.START_CLOCK);
    private final RpcServerCore server = new RpcServerCore(RpcLincheckScenario.CONFIG, clock,
            new InMemoryStableStorage(), RpcLincheckScenario.KAPPA);

    public ServerOutcome receiveCall(int conn, int ts) {
        return server.receiveCall(RpcLincheckScenario.call(conn, ts)).outcome();
    }

    public ServerOutcome receiveTruncatedCall(int conn, int ts) {
        return server.receiveTruncatedCall(RpcLincheckScenario.truncatedCall(conn, ts)).outcome();
    }

    public ServerOutcome receiveReplyAck(int conn, int ts) {
        return server.receiveReplyAck(RpcLincheckScenario.replyAck(conn, ts)).outcome();
    }

    public ServerOutcome complete(int conn, int ts) {
        return server.complete(LincheckScenario.conn(conn), Timestamp.of(ts), RpcLincheckScenario.RESULT).outcome();
    }

    public boolean collectGarbage(int conn) {
        return server.collectGarbage(LincheckScenario.conn(conn));
    }

    public void tick() {
        clock.advance(1);
    }
}
