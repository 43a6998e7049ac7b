package dev.onceproof.conformance.lincheck;

import dev.onceproof.rpc.core.RpcServerCore;
import dev.onceproof.rpc.core.ServerOutcome;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.InMemoryStableStorage;

/**
 * Lincheck's sequential specification for the RPC server: the deterministic {@link RpcServerCore}
 * over {@link ScmpServer}, which trace replay ties to RPC.tla, in the test's world
 * ({@link RpcLincheckScenario}). Method names and parameters match the concurrent test classes;
 * results are the step's outcome, compared by equals. The core has no FinishRecovery of its own
 * (RPC.tla is on the resilient server); its SCMP server's is the step, as in the concurrent server.
 */
public abstract class SequentialRpc {

    private final ManualInstantSource clock = new ManualInstantSource(RpcLincheckScenario.START_CLOCK);
    private final ScmpConfig config;
    /** Built on first use, as in {@link RpcLincheckBase#server()} (lincheck#402). */
    private ScmpServer scmp;
    private RpcServerCore server;

    /** The core over an SCMP server this class keeps, for FinishRecovery. */
    private static final class Core extends RpcServerCore {
        Core(ScmpServer scmp, ManualInstantSource clock) {
            super(scmp, clock, RpcLincheckScenario.KAPPA);
        }
    }

    SequentialRpc(ScmpConfig config) {
        this.config = config;
    }

    private RpcServerCore server() {
        if (server == null) {
            scmp = new ScmpServer(config, clock, new InMemoryStableStorage());
            server = new Core(scmp, clock);
            server.receiveCall(RpcLincheckScenario.call(1, 1));
            server.complete(LincheckScenario.conn(1), Timestamp.of(1), RpcLincheckScenario.RESULT);
            server.receiveCall(RpcLincheckScenario.call(2, 1));
            clock.advance(1);
        }
        return server;
    }

    public void prelude() {
        server();
    }

    public ServerOutcome receiveCall(int conn, int ts) {
        return server().receiveCall(RpcLincheckScenario.call(conn, ts)).outcome();
    }

    public ServerOutcome receiveTruncatedCall(int conn, int ts) {
        return server().receiveTruncatedCall(RpcLincheckScenario.truncatedCall(conn, ts)).outcome();
    }

    public ServerOutcome receiveReplyAck(int conn, int ts) {
        return server().receiveReplyAck(RpcLincheckScenario.replyAck(conn, ts)).outcome();
    }

    public ServerOutcome complete(int conn, int ts) {
        return server().complete(LincheckScenario.conn(conn), Timestamp.of(ts), RpcLincheckScenario.RESULT).outcome();
    }

    public boolean collectGarbage(int conn) {
        return server().collectGarbage(LincheckScenario.conn(conn));
    }

    public int collectGarbage() {
        return server().collectGarbage();
    }

    public void tick() {
        clock.advance(1);
    }

    public void restart() {
        server().crash();
        server().recover();
    }

    public boolean finishRecovery() {
        try {
            server();
            scmp.finishRecovery();
            return true;
        } catch (IllegalStateException notEnabled) {
            return false;
        }
    }

    public long writeLatest() {
        return server().writeLatest();
    }

    public static class Monotonic extends SequentialRpc {
        public Monotonic() {
            super(RpcLincheckScenario.MONOTONIC);
        }
    }

    public static class Resilient extends SequentialRpc {
        public Resilient() {
            super(RpcLincheckScenario.RESILIENT);
        }
    }
}
