package dev.onceproof.conformance.lincheck;

import dev.onceproof.rpc.core.ConcurrentRpcServer;
import dev.onceproof.rpc.core.RpcServerSeams;
import dev.onceproof.rpc.core.RpcServerState;
import dev.onceproof.rpc.core.ServerEntry;
import dev.onceproof.rpc.core.ServerOutcome;
import dev.onceproof.scmp.FilterSeams;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import java.util.Map;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;

/**
 * The operations Lincheck runs on the real {@link ConcurrentRpcServer}, in a world of
 * {@link RpcLincheckScenario}: the spec's ReceiveCall (full and truncated), ReceiveReplyAck, Complete,
 * CollectGarbage(c), the full pass, Tick, and Crash followed by Recover (a process restart); the
 * scheme's own action (FinishRecovery or WriteLatest) is in the subclass. Checked on every explored
 * interleaving besides linearizability: no call executed twice (Figure 3-1), and at the end the
 * invariant of {@link RpcServerState}: the RPC table and SCMP's ct have the same keys, each entry's
 * ts being ct.
 *
 * @see SequentialRpc the sequential specification, with the same world
 */
@Param(name = "conn", gen = IntGen.class, conf = "1:2")
@Param(name = "ts", gen = IntGen.class, conf = "1:3")
public abstract class RpcLincheckBase {

    private final ScmpConfig config;
    /** Which mutation seam the server commits; "NONE" for the class as it ships. */
    private final String reordering;
    final ProcessWorld world = new ProcessWorld(RpcLincheckScenario.START_CLOCK);
    private final AcceptanceLog log = new AcceptanceLog();
    /**
     * The running process's server, replaced by {@link #restart}; null until {@link #server()} built
     * it. Lincheck 2.39 cannot walk a record (ServerEntry) reachable from a fresh test instance
     * (lincheck#402), so the world's prelude runs on first use, not in the constructor; targeted
     * scenarios run it first, sequentially ({@link #prelude}), random ones in their first operation.
     */
    private volatile ConcurrentRpcServer server;

    RpcLincheckBase(ScmpConfig config, String reordering) {
        this.config = config;
        this.reordering = reordering;
    }

    /** The server, built on first use in {@link RpcLincheckScenario}'s starting state. */
    ConcurrentRpcServer server() {
        ConcurrentRpcServer s = server;
        if (s != null) {
            return s;
        }
        synchronized (this) {
            if (server == null) {
                ConcurrentRpcServer built = RpcServerSeams.over(
                        FilterSeams.fresh(config, world.clock, world.storage, "NONE"), world.clock,
                        RpcLincheckScenario.KAPPA, reordering);
                log.record(1, 1, built.receiveCall(RpcLincheckScenario.call(1, 1)).outcome());
                built.complete(LincheckScenario.conn(1), Timestamp.of(1), RpcLincheckScenario.RESULT);
                log.record(2, 1, built.receiveCall(RpcLincheckScenario.call(2, 1)).outcome());
                world.clock.advance(1);
                server = built;
            }
            return server;
        }
    }

    /** Not an operation: builds the starting state before a targeted scenario (see {@link Scenarios}). */
    public void prelude() {
        server();
    }

    @Operation
    public ServerOutcome receiveCall(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return world.step(() -> log.record(conn, ts,
                server().receiveCall(RpcLincheckScenario.call(conn, ts)).outcome()));
    }

    @Operation
    public ServerOutcome receiveTruncatedCall(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return world.step(() -> server().receiveTruncatedCall(RpcLincheckScenario.truncatedCall(conn, ts)).outcome());
    }

    @Operation
    public ServerOutcome receiveReplyAck(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return world.step(() -> server().receiveReplyAck(RpcLincheckScenario.replyAck(conn, ts)).outcome());
    }

    @Operation
    public ServerOutcome complete(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return world.step(() -> server().complete(LincheckScenario.conn(conn), Timestamp.of(ts),
                RpcLincheckScenario.RESULT).outcome());
    }

    @Operation
    public boolean collectGarbage(@Param(name = "conn") int conn) {
        return world.step(() -> server().collectGarbage(LincheckScenario.conn(conn)));
    }

    /** The full pass the runtime's collector runs. */
    @Operation
    public int collectGarbage() {
        return world.stillClockStep(() -> server().collectGarbage());
    }

    @Operation
    public void tick() {
        world.tick();
    }

    /** Crash then Recover: the process dies and a new one starts on the same stable storage. */
    @Operation
    public void restart() {
        server();
        world.restart(() -> server = RpcServerSeams.over(
                FilterSeams.restart(config, world.clock, world.storage, "NONE"), world.clock,
                RpcLincheckScenario.KAPPA, reordering));
    }

    @Validate
    public void atMostOnceAndTablesAgree() {
        log.validate();
        RpcServerState s = server().state();
        Map<String, Long> ct = s.scmp().ct();
        boolean agree = s.rpc().keySet().equals(ct.keySet()) && s.rpc().entrySet().stream()
                .allMatch(e -> ct.get(e.getKey()) == ((ServerEntry) e.getValue()).ts().value());
        if (!agree) {
            throw new IllegalStateException("RpcServerState invariant broken: rpc " + s.rpc() + " but ct " + ct);
        }
    }
}
