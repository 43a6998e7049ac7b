package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConcurrentScmpFilter;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.StableStorage;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The thread-safe at-most-once RPC server (paper 3.1, Figure 3-1) for worker threads that share one
 * SCMP filter, {@link ConcurrentScmpFilter}: receives, completions and garbage collection on
 * different connections run in parallel, with no global lock. Same steps and outcomes as the
 * sequential {@link RpcServerCore}, whose decisions it takes from {@link ServerRules}; conformance's
 * Lincheck suite checks it is linearizable against the core and never executes a call twice.
 *
 * <p><b>Why it is safe.</b> A step touches the RPC entry and the SCMP entry of its connection, and
 * they must change together: the call SCMP accepts must be COMPUTING before any duplicate of it is
 * answered, and GC must not drop the SCMP entry of a COMPUTING call nor leave an RPC entry without
 * one. So every step on a connection runs inside {@link ConcurrentHashMap#compute} (or
 * {@code computeIfPresent}) of the RPC table for that connection, and calls the filter's
 * {@link ConcurrentScmpFilter#receive} or {@link ConcurrentScmpFilter#collectGarbage(ConnId)}
 * <em>inside</em> that section: steps on one connection are serialized, each a single atomic step
 * of the spec: the argument for running the sequential core under one lock, made per key. The
 * invariant stated on {@link RpcServerState} holds between sections: the RPC table and the
 * filter's ct have the same keys and the entry's ts is ct.
 *
 * <p><b>Lock order.</b> RPC table bin, then the filter's ct bin (and, briefly and after it, the rho
 * estimator's lock); never the reverse, since the filter never calls back into this class and no
 * code here takes a table bin while inside the filter. So there is no deadlock cycle.
 *
 * <p><b>Garbage collection.</b> Only per-connection collection is used. The filter's full pass
 * {@link ConcurrentScmpFilter#collectGarbage()} would drop the SCMP entry of a COMPUTING call (it
 * knows nothing of RPC states), so this server's pass walks its own table instead. The pass is a
 * sequence of atomic single-entry collections, not one atomic step, and is not sorted: each
 * collection is independent of the others, so their order is irrelevant to safety.
 *
 * <p>Steps return their effects (same {@link ServerStep} and ordering rule as the core); the caller
 * performs them outside any section, so two steps' effects may go out in either order, which the
 * protocol tolerates (datagrams may be reordered anyway). A crash is the death of the process:
 * there is no crash()/recover(); build a new server with {@link #restart}.
 *
 * <p><b>Mutation seams.</b> {@link Reordering} names steps taken outside their per-key section,
 * which the argument above forbids; a server that commits one can be built only from this package,
 * so that conformance's Lincheck suite can show it catches each in this class, not in a copy.
 *
 * <p><b>Step log.</b> With a {@link StepLog} that is on, each step of RPC.tla this server takes
 * (ReceiveCall, Complete, ReceiveReplyAck, CollectGarbage; WriteLatest and Recover through its
 * filter) is logged inside its per-key section under the log's monitor, with the clock read there,
 * before the step returns the effects the caller sends: a line precedes every datagram it caused.
 */
public final class ConcurrentRpcServer implements ServerRules.Receiver {

    private final ConcurrentScmpFilter filter;
    private final InstantSource clock;
    /** Paper 3.1's kappa: how long a reply is kept for a client "if it is still interested". */
    private final long kappa;
    /**
     * The RPC part of the connection table. Invariant: same keys as the filter's ct and each entry's
     * ts equals ct, between per-key sections (both change only inside the section of their key); an
     * entry leaves only through {@link #collectGarbage(ConnId)}, never while COMPUTING.
     */
    private final ConcurrentHashMap<ConnId, ServerEntry> table = new ConcurrentHashMap<>();
    private final Reordering reordering;
    private final StepLog log;

    /** Steps moved out of conn's section, each a small change a maintainer could make; tests only. */
    enum Reordering {
        NONE,
        /** CALL: entry read, SCMP verdict and entry written as three atomic steps (get, receive, put). */
        CALL_JUDGED_OUTSIDE_SECTION,
        /** Truncated CALL judged on an entry and an upper read outside conn's section (issue 13). */
        TRUNCATED_CALL_JUDGED_OUTSIDE_SECTION,
        /** GC removes the RPC entry in conn's section and SCMP's entry only after it. */
        SCMP_ENTRY_COLLECTED_AFTER_SECTION
    }

    /** A freshly created server (spec Init): see {@link ConcurrentScmpFilter#ConcurrentScmpFilter}. */
    public ConcurrentRpcServer(ScmpConfig config, InstantSource clock, StableStorage storage, long kappa) {
        this(new ConcurrentScmpFilter(config, clock, storage), clock, kappa);
    }

    /** A server process that ran before: recovers from stable storage (Fig. 3-1 "Crash Recovery"). */
    public static ConcurrentRpcServer restart(ScmpConfig config, InstantSource clock, StableStorage storage,
            long kappa) {
        return new ConcurrentRpcServer(ConcurrentScmpFilter.restart(config, clock, storage), clock, kappa);
    }

    private ConcurrentRpcServer(ConcurrentScmpFilter filter, InstantSource clock, long kappa) {
        this(filter, clock, kappa, Reordering.NONE, StepLog.OFF);
    }

    /** A fresh server, or one recovering from {@code storage} ({@code restart}), logging its steps to {@code log}. */
    public static ConcurrentRpcServer logged(ScmpConfig config, InstantSource clock, StableStorage storage,
                                             long kappa, boolean restart, StepLog log) {
        return new ConcurrentRpcServer(ConcurrentScmpFilter.embedded(config, clock, storage, restart, log), clock,
                kappa, Reordering.NONE, log);
    }

    ConcurrentRpcServer(ConcurrentScmpFilter filter, InstantSource clock, long kappa, Reordering reordering) {
        this(filter, clock, kappa, reordering, StepLog.OFF);
    }

    /** A server over the given filter that commits one forbidden reordering: mutation seam, tests only. */
    ConcurrentRpcServer(ConcurrentScmpFilter filter, InstantSource clock, long kappa, Reordering reordering,
                        StepLog log) {
        this.log = Objects.requireNonNull(log, "log");
        this.reordering = Objects.requireNonNull(reordering, "reordering");
        this.filter = Objects.requireNonNull(filter, "filter");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.kappa = ServerRules.requireKappa(kappa);
    }

    /** What one per-key section decided; confined to the stepping thread. */
    private static final class Outcome {
        ServerStep step;
        boolean removed;

        /** The step, or IGNORE where the section found nothing to do (or no entry at all). */
        ServerStep stepOrIgnore() {
            return step != null ? step : ServerStep.of(ServerOutcome.IGNORE);
        }
    }

    /**
     * Any message from the network. CALL and truncated CALL are spec action ReceiveCall, REPLY-ACK is
     * ReceiveReplyAck; messages meant for clients (ACK, REPLY, REJECT) are ignored.
     */
    public ServerStep receive(RpcMessage m) {
        ServerStep step = ServerRules.dispatch(m, this);
        return step != null ? step : ServerStep.of(ServerOutcome.IGNORE);
    }

    /**
     * Figure 3-1, "Process Incoming CALL Messages". SCMP's verdict and the entry it leads to are one
     * section: a duplicate arriving meanwhile waits and then sees COMPUTING (ACK), never the gap
     * between SCMP accepting the call and the entry recording it (which would REJECT it).
     */
    @Override
    public ServerStep receiveCall(RpcMessage.Call m) {
        if (reordering == Reordering.CALL_JUDGED_OUTSIDE_SECTION) {
            ServerEntry entry = table.get(m.conn());
            Verdict v = filter.receive(m.conn(), m.ts());
            if (v == Verdict.ACCEPTED) {
                table.put(m.conn(), ServerEntry.computing(m.ts()));
                return ServerRules.execute(m);
            }
            return ServerRules.notAccepted(v, m, entry, ServerRules::retransmit);
        }
        Outcome out = new Outcome();
        table.compute(m.conn(), (conn, entry) -> {
            if (!log.on()) {
                return judgeCall(m, conn, entry, out);
            }
            synchronized (log) {
                ServerEntry next = judgeCall(m, conn, entry, out);
                logCall(m.conn(), m.ts().value(), false, out.step.outcome());
                return next;
            }
        });
        return out.step;
    }

    private ServerEntry judgeCall(RpcMessage.Call m, ConnId conn, ServerEntry entry, Outcome out) {
        Verdict v = filter.receive(conn, m.ts());
        if (v == Verdict.ACCEPTED) {
            out.step = ServerRules.execute(m);
            return ServerEntry.computing(m.ts());
        }
        out.step = ServerRules.notAccepted(v, m, entry, ServerRules::retransmit);
        return entry;
    }

    /** RPC.tla ReceiveCall(m) with its outcome; the caller holds the log's monitor. */
    private void logCall(ConnId conn, long ts, boolean truncated, ServerOutcome outcome) {
        log.step("ReceiveCall").field("conn", conn.value()).field("ts", ts).field("truncated", truncated)
                .field("outcome", outcome.specName());
        if (outcome == ServerOutcome.EXECUTE) {
            log.field("ct", conn.value(), ts);
        }
        log.field("clock", clock.millis()).end();
    }

    /**
     * A retransmission after an ACK, without the payload, judged read-only (see
     * {@link ServerRules#truncatedCall}). Inside conn's section, so upper and the entry are read in
     * one state: GC of conn raises upper and removes the entry in a section of the same key.
     */
    @Override
    public ServerStep receiveTruncatedCall(RpcMessage.TruncatedCall m) {
        if (reordering == Reordering.TRUNCATED_CALL_JUDGED_OUTSIDE_SECTION) {
            long upper = filter.upperOf(m.conn());
            boolean recovering = filter.inRecovery();
            return ServerRules.truncatedCall(m.conn(), m.ts(), table.get(m.conn()), upper, recovering,
                    ServerRules::retransmit);
        }
        Outcome out = new Outcome();
        table.compute(m.conn(), (conn, entry) -> {
            if (!log.on()) {
                out.step = ServerRules.truncatedCall(conn, m.ts(), entry, filter.upperOf(conn), filter.inRecovery(),
                        ServerRules::retransmit);
                return entry;
            }
            synchronized (log) {
                out.step = ServerRules.truncatedCall(conn, m.ts(), entry, filter.upperOf(conn), filter.inRecovery(),
                        ServerRules::retransmit);
                logCall(conn, m.ts().value(), true, out.step.outcome());
                return entry;
            }
        });
        return out.step;
    }

    /** Figure 3-1, "Process Incoming REPLY-ACK messages", for the call whose reply is stored only. */
    @Override
    public ServerStep receiveReplyAck(RpcMessage.ReplyAck m) {
        Outcome out = new Outcome();
        table.computeIfPresent(m.conn(), (conn, entry) -> {
            ServerEntry idle = ServerRules.acknowledged(entry, m.ts());
            if (log.on()) {
                synchronized (log) {
                    log.step("ReceiveReplyAck").field("conn", conn.value()).field("ts", m.ts().value())
                            .field("outcome", idle == null ? "ignore" : "idle").field("clock", clock.millis()).end();
                }
            }
            if (idle == null) {
                return entry;
            }
            out.step = ServerStep.of(ServerOutcome.IDLE);
            return idle;
        });
        return out.stepOrIgnore();
    }

    /**
     * Figure 3-1, "Process completion of user-level computation": store the results and the reply
     * time, send the REPLY. Call it only once the computation's side effects are durable. A
     * completion whose entry is gone or has moved on to another call is ignored.
     */
    public ServerStep complete(ConnId conn, Timestamp ts, Payload result) {
        Objects.requireNonNull(result, "result");
        Outcome out = new Outcome();
        table.computeIfPresent(conn, (c, entry) -> {
            if (!log.on()) {
                return completeEntry(c, ts, result, entry, clock.millis(), out);
            }
            synchronized (log) {
                long now = clock.millis();
                ServerEntry next = completeEntry(c, ts, result, entry, now, out);
                log.step("Complete").field("conn", c.value()).field("ts", ts.value())
                        .field("outcome", out.step != null ? "reply" : "ignore").field("clock", now).end();
                return next;
            }
        });
        return out.stepOrIgnore();
    }

    private static ServerEntry completeEntry(ConnId c, Timestamp ts, Payload result, ServerEntry entry, long now,
                                             Outcome out) {
        ServerEntry done = ServerRules.completed(entry, ts, result, now);
        if (done == null) {
            return entry;
        }
        out.step = ServerRules.reply(c, ts, result);
        return done;
    }

    /**
     * Figure 3-1, "Garbage collection", one entry: see {@link RpcServerCore#collectGarbage(ConnId)}.
     * The RPC rule (never COMPUTING; reply_time < clock - rho') and SCMP's removal, which raises
     * upper to the call's ts, happen in conn's section, so no receive on conn sees the RPC entry
     * without the SCMP entry or the reverse, and a late duplicate finds upper covering its ts.
     *
     * @return whether the entry was removed
     */
    public boolean collectGarbage(ConnId conn) {
        long rhoPrime = ServerRules.rhoPrime(filter.rhoOf(conn), kappa);
        Outcome out = new Outcome();
        boolean scmpInside = reordering != Reordering.SCMP_ENTRY_COLLECTED_AFTER_SECTION;
        table.computeIfPresent(conn, (c, entry) -> {
            if (!log.on()) {
                return collectEntry(c, entry, rhoPrime, scmpInside, out);
            }
            synchronized (log) {
                ServerEntry next = collectEntry(c, entry, rhoPrime, scmpInside, out);
                if (out.removed) {
                    // A clock read after both rules passed: they only get truer as the clock moves.
                    log.step("CollectGarbage").field("conn", c.value()).field("clock", clock.millis())
                            .field("upper", filter.rhoClassOf(c), filter.upperOf(c)).end();
                }
                return next;
            }
        });
        if (!scmpInside && out.removed) {
            filter.collectGarbage(conn);
        }
        return out.removed;
    }

    private ServerEntry collectEntry(ConnId c, ServerEntry entry, long rhoPrime, boolean scmpInside, Outcome out) {
        if (!ServerRules.mayCollect(entry, clock.millis(), rhoPrime) || (scmpInside && !filter.collectGarbage(c))) {
            return entry;
        }
        out.removed = true;
        return null;
    }

    /**
     * Every eligible entry: a sequence of atomic {@link #collectGarbage(ConnId)} steps over the table's
     * keys (weakly consistent iteration: entries added during the pass may be skipped, the next pass
     * sees them). Returns how many were removed.
     */
    public int collectGarbage() {
        return ServerRules.collectEach(table.keySet(), this::collectGarbage);
    }

    /**
     * Spec action WriteLatest (Fig. 2-2 "Maintaining Latest"), returning latest after the step. The
     * filter serializes writers on its own lock, which no receive takes (receives read the volatile
     * latest), so the durable write (an fsync) never stalls receives; until it returns, receives judge
     * against the old, lower latest, which is only stricter.
     */
    public long writeLatest() {
        return filter.writeLatest();
    }

    /** Spec FinishRecovery (monotonic scheme): see {@link ConcurrentScmpFilter#finishRecovery}. */
    public void finishRecovery() {
        filter.finishRecovery();
    }

    /** Monotonic scheme: restarted and {@link #finishRecovery} has not run, so every call is refused. */
    public boolean inRecovery() {
        return filter.inRecovery();
    }

    /**
     * The spec's server variables. Each entry is read atomically; the whole is a snapshot only when
     * no step is running (tests, diagnostics).
     */
    public RpcServerState state() {
        Map<String, ServerEntry> byName = new HashMap<>();
        table.forEach((conn, e) -> byName.put(conn.value(), e));
        return new RpcServerState(byName, filter.state());
    }

    public long kappa() {
        return kappa;
    }
}
