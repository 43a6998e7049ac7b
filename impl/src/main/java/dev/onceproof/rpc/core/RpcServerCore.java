package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.StableStorage;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The at-most-once RPC server of Liskov, Shrira and Wroclawski (1990, 3.1, Figure 3-1): a sans-IO
 * state machine on top of the SCMP filter ({@link ScmpServer}), which it owns. CALLs pass through
 * SCMP; a NEW one starts the computation, a DUPLICATE one gets an ACK, the stored reply, or a REJECT.
 *
 * <p>Method names are the actions of specs/rpc/RPC.tla: {@link #receive} (ReceiveCall,
 * ReceiveReplyAck), {@link #complete} (Complete), {@link #collectGarbage(ConnId)} (CollectGarbage),
 * {@link #writeLatest}, {@link #crash}, {@link #recover}; {@link #state} is the spec's server
 * variables.
 *
 * <p><b>Not thread-safe.</b> One thread at a time. The thread-safe server the runtime uses is
 * {@link ConcurrentRpcServer}, which takes the same decisions (from {@link ServerRules}) and is
 * checked linearizable against this core. Time comes from the injected clock (ms), latest goes to
 * the injected stable storage.
 *
 * <p><b>Mutation seams.</b> {@link #mayCollect} and {@link #duplicateWhileReplying} each carry one
 * safeguard of Figure 3-1, so conformance tests can build a broken core and show that trace replay
 * catches it; production code must not override them.
 */
public class RpcServerCore implements ServerRules.Receiver {

    private final ScmpServer scmp;
    private final InstantSource clock;
    /** Paper 3.1's kappa: how long a reply is kept for a client "if it is still interested". */
    private final long kappa;
    /**
     * The RPC part of the connection table. Invariant: same keys as SCMP's ct, and each entry's ts
     * equals ct; an entry leaves only through {@link #collectGarbage(ConnId)} (never while
     * COMPUTING) or a crash.
     */
    private final Map<ConnId, ServerEntry> table = new HashMap<>();
    /** {@link #duplicateWhileReplying} as the shared rules call it; a field, so steps do not allocate it. */
    private final ServerRules.ReplyingDuplicate replying = this::duplicateWhileReplying;
    /** Mirrors SCMP's up (false between crash() and recover()), read on every step. */
    private boolean up;

    /** A freshly created server (spec Init): see {@link ScmpServer#ScmpServer}. */
    public RpcServerCore(ScmpConfig config, InstantSource clock, StableStorage storage, long kappa) {
        this(new ScmpServer(config, clock, storage), clock, kappa);
    }

    /** A server process that ran before: recovers from stable storage (Fig. 3-1 "Crash Recovery"). */
    public static RpcServerCore restart(ScmpConfig config, InstantSource clock, StableStorage storage, long kappa) {
        return new RpcServerCore(ScmpServer.restart(config, clock, storage), clock, kappa);
    }

    protected RpcServerCore(ScmpServer scmp, InstantSource clock, long kappa) {
        this.scmp = Objects.requireNonNull(scmp, "scmp");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.kappa = ServerRules.requireKappa(kappa);
        this.up = scmp.state().up();
    }

    /**
     * Any message from the network. CALL and truncated CALL are spec action ReceiveCall, REPLY-ACK is
     * ReceiveReplyAck; messages meant for clients (ACK, REPLY, REJECT) are ignored.
     *
     * @throws IllegalStateException if the server is down (crashed and not recovered)
     */
    public ServerStep receive(RpcMessage m) {
        ServerStep step = ServerRules.dispatch(m, this);
        if (step != null) {
            return step;
        }
        requireUp();
        return ServerStep.of(ServerOutcome.IGNORE);
    }

    /** Figure 3-1, "Process Incoming CALL Messages". */
    @Override
    public ServerStep receiveCall(RpcMessage.Call m) {
        Verdict v = scmp.receive(m.conn(), m.ts());
        if (v == Verdict.ACCEPTED) {
            return startComputing(m);
        }
        return ServerRules.notAccepted(v, m, table.get(m.conn()), replying);
    }

    /**
     * A retransmission after an ACK, without the payload. It is judged like a CALL but read-only:
     * SCMP must not accept it, since no call can start without its arguments (see
     * {@link ServerRules#truncatedCall}).
     */
    @Override
    public ServerStep receiveTruncatedCall(RpcMessage.TruncatedCall m) {
        requireUp();
        return ServerRules.truncatedCall(m.conn(), m.ts(), table.get(m.conn()), upperOf(m.conn()),
                scmp.inRecovery(), replying);
    }

    /** Figure 3-1, "Process Incoming REPLY-ACK messages", for the call whose reply is stored only. */
    @Override
    public ServerStep receiveReplyAck(RpcMessage.ReplyAck m) {
        requireUp();
        ServerEntry idle = ServerRules.acknowledged(table.get(m.conn()), m.ts());
        if (idle == null) {
            return ServerStep.of(ServerOutcome.IGNORE);
        }
        table.put(m.conn(), idle);
        return ServerStep.of(ServerOutcome.IDLE);
    }

    /**
     * Figure 3-1, "Process completion of user-level computation": store the results and the reply
     * time, send the REPLY. Call it only once the computation's side effects are durable. A
     * completion whose entry is gone or moved on (a crash in between) is ignored.
     */
    public ServerStep complete(ConnId conn, Timestamp ts, Payload result) {
        Objects.requireNonNull(result, "result");
        if (!up) {
            return ServerStep.of(ServerOutcome.IGNORE);
        }
        ServerEntry done = ServerRules.completed(table.get(conn), ts, result, clock.millis());
        if (done == null) {
            return ServerStep.of(ServerOutcome.IGNORE);
        }
        table.put(conn, done);
        return ServerRules.reply(conn, ts, result);
    }

    /**
     * Figure 3-1, "Garbage collection", one entry: never a COMPUTING one; an IDLE or REPLYING one once
     * reply_time < clock - rho' with rho' = max(rho, kappa), and only if SCMP may drop it too
     * (ct <= clock - rho, Fig. 2-2). SCMP raises upper to the entry's ts, the client's call time:
     * "G.upper is set using the client's call time, not the reply time".
     *
     * @return whether the entry was removed
     */
    public boolean collectGarbage(ConnId conn) {
        requireUp();
        ServerEntry entry = table.get(conn);
        if (entry == null) {
            return false;
        }
        long rhoPrime = ServerRules.rhoPrime(rhoOf(conn), kappa);
        if (!mayCollect(entry, clock.millis(), rhoPrime) || !scmp.collectGarbage(conn)) {
            return false;
        }
        table.remove(conn);
        return true;
    }

    /** Every eligible entry, in connection-id order (deterministic for replay and simulation). */
    public int collectGarbage() {
        requireUp();
        List<ConnId> conns = new ArrayList<>(table.keySet());
        conns.sort(Comparator.comparing(ConnId::value));
        return ServerRules.collectEach(conns, this::collectGarbage);
    }

    /** Spec action WriteLatest (Fig. 2-2 "Maintaining Latest"); returns latest after the step. */
    public long writeLatest() {
        return scmp.writeLatest();
    }

    /** Spec action Crash: the connection table (RPC and SCMP parts) is volatile and lost. */
    public void crash() {
        scmp.crash();
        table.clear();
        up = false;
    }

    /** Spec action Recover (Fig. 3-1: "(Re)Initialize SCMP algorithm as in Figure 2-2"). */
    public void recover() {
        scmp.recover();
        table.clear();
        up = true;
    }

    /** The spec's server variables. */
    public RpcServerState state() {
        Map<String, ServerEntry> byName = new HashMap<>();
        table.forEach((conn, e) -> byName.put(conn.value(), e));
        return new RpcServerState(byName, scmp.state());
    }

    public boolean isUp() {
        return up;
    }

    public long kappa() {
        return kappa;
    }

    // ---- mutation seams --------------------------------------------------------------------

    /** Seam: Figure 3-1 GC rule 1 ("If state is COMPUTING, do nothing") and rule 2's age test. */
    protected boolean mayCollect(ServerEntry entry, long now, long rhoPrime) {
        return ServerRules.mayCollect(entry, now, rhoPrime);
    }

    /** Seam: Figure 3-1, 3: "if state is REPLYING, retransmit stored reply" (never re-execute). */
    protected ServerStep duplicateWhileReplying(ConnId conn, ServerEntry entry, RpcMessage.Call fullCall) {
        return ServerRules.retransmit(conn, entry, fullCall);
    }

    /** For seams: Figure 3-1, 2: discard any stored reply, COMPUTING, begin the computation. */
    protected final ServerStep startComputing(RpcMessage.Call m) {
        table.put(m.conn(), ServerEntry.computing(m.ts()));
        return ServerRules.execute(m);
    }

    // ---- helpers ---------------------------------------------------------------------------

    private long rhoOf(ConnId conn) {
        ScmpConfig config = scmp.config();
        return config.rhoClasses().get(config.classifier().apply(conn)).current();
    }

    private long upperOf(ConnId conn) {
        ScmpConfig config = scmp.config();
        return scmp.state().upper().get(config.classifier().apply(conn));
    }

    private void requireUp() {
        if (!up) {
            throw new IllegalStateException("the RPC server is down: it crashed and recover() was not called");
        }
    }
}
