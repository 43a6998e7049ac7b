package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Figure 3-1's decisions for one connection, as pure functions of the current entry and the input:
 * the one place both servers take them from, the sequential {@link RpcServerCore} (which trace
 * replay ties to specs/rpc/RPC.tla) and the thread-safe {@link ConcurrentRpcServer} (which Lincheck
 * checks against the core). Neither reads nor writes any table here: each server decides how the
 * entry it passes in is read and how the entry returned is stored, and that is where their
 * concurrency arguments live.
 *
 * <p>An {@code entry} argument is the connection's current entry, null if it has none. Steps
 * without effects are made per step, not held in static constants: Lincheck 2.39 fails on a record
 * reachable from a static field (Unsafe refuses record field offsets, lincheck#402), and the cost is
 * one small object, the empty effect list being shared.
 */
final class ServerRules {


    /**
     * Figure 3-1, 3, "if state is REPLYING": {@link RpcServerCore#duplicateWhileReplying} is a
     * mutation seam, so the core passes its own (overridable) method and the concurrent server
     * {@link #retransmit}.
     */
    @FunctionalInterface
    interface ReplyingDuplicate {
        ServerStep answer(ConnId conn, ServerEntry entry, RpcMessage.Call fullCall);
    }

    /** The three receive actions both servers offer, for {@link #dispatch}. */
    interface Receiver {
        ServerStep receiveCall(RpcMessage.Call m);

        ServerStep receiveTruncatedCall(RpcMessage.TruncatedCall m);

        ServerStep receiveReplyAck(RpcMessage.ReplyAck m);
    }

    private ServerRules() {
    }

    /**
     * A message from the network to its receive action: CALL and truncated CALL are spec action
     * ReceiveCall, REPLY-ACK is ReceiveReplyAck. Null for a message meant for a client (ACK, REPLY,
     * REJECT), which the server ignores.
     */
    static ServerStep dispatch(RpcMessage m, Receiver r) {
        if (m instanceof RpcMessage.Call call) {
            return r.receiveCall(call);
        }
        if (m instanceof RpcMessage.TruncatedCall t) {
            return r.receiveTruncatedCall(t);
        }
        if (m instanceof RpcMessage.ReplyAck ack) {
            return r.receiveReplyAck(ack);
        }
        return null;
    }

    static long requireKappa(long kappa) {
        if (kappa < 0) {
            throw new IllegalArgumentException("kappa " + kappa + " is negative");
        }
        return kappa;
    }

    /** A collection pass: one single-entry collection per connection, in the order given. */
    static int collectEach(Iterable<ConnId> conns, Predicate<ConnId> collect) {
        int removed = 0;
        for (ConnId c : conns) {
            if (collect.test(c)) {
                removed++;
            }
        }
        return removed;
    }

    /**
     * Figure 3-1, 2, for a CALL that SCMP ACCEPTED: the entry becomes {@link ServerEntry#computing}
     * (discarding any stored reply) and the computation begins.
     */
    static ServerStep execute(RpcMessage.Call m) {
        return ServerStep.of(ServerOutcome.EXECUTE, new ServerEffect.Execute(m.conn(), m.ts(), m.payload()));
    }

    /** Figure 3-1, "Process Incoming CALL Messages", for every verdict but ACCEPTED; the entry stays. */
    static ServerStep notAccepted(Verdict v, RpcMessage.Call m, ServerEntry entry, ReplyingDuplicate replying) {
        return switch (v) {
            case DUPLICATE -> answerDuplicate(m.conn(), m.ts(), entry, m, replying);
            case TOO_EARLY -> ServerStep.of(ServerOutcome.TOO_EARLY);
            case RECOVERING -> ServerStep.of(ServerOutcome.IGNORE);
            case ACCEPTED -> throw new IllegalArgumentException("call (" + m.conn() + ", " + m.ts()
                    + ") was ACCEPTED: Figure 3-1, 2 starts it (execute), it is not answered as a duplicate");
        };
    }

    /**
     * A truncated CALL (a retransmission after an ACK, without the payload), judged read-only: no
     * call can start without its arguments, so the entry never changes. A client sends one only after
     * an ACK, so the entry, upper, or the upper recovered after a crash covers ts; an uncovered one is
     * forged or corrupted and ignored, and while recovering nothing is known, so nothing is rejected.
     *
     * @param upper the connection's class bound (spec {@code upper}); read only when there is no entry
     */
    static ServerStep truncatedCall(ConnId conn, Timestamp ts, ServerEntry entry, long upper, boolean inRecovery,
            ReplyingDuplicate replying) {
        if (entry != null && entry.ts().equals(ts)) {
            return answerDuplicate(conn, ts, entry, null, replying);
        }
        long bound = entry != null ? entry.ts().value() : upper;
        if (!inRecovery && ts.value() <= bound) {
            return reject(conn, ts);
        }
        return ServerStep.of(ServerOutcome.IGNORE);
    }

    /** Figure 3-1, 3, for a DUPLICATE verdict; {@code fullCall} is null for a truncated CALL. */
    private static ServerStep answerDuplicate(ConnId conn, Timestamp ts, ServerEntry entry, RpcMessage.Call fullCall,
            ReplyingDuplicate replying) {
        if (entry == null || !entry.ts().equals(ts)) {
            // The paper ignores a duplicate without an entry; we say so, see RpcMessage.Reject.
            return reject(conn, ts);
        }
        return switch (entry.state()) {
            case COMPUTING -> ServerStep.of(ServerOutcome.ACK, new ServerEffect.Send(new RpcMessage.Ack(conn, ts)));
            case REPLYING -> replying.answer(conn, entry, fullCall);
            case IDLE -> ServerStep.of(ServerOutcome.IGNORE);
        };
    }

    /** Figure 3-1, 3: "if state is REPLYING, retransmit stored reply" (never re-execute). */
    static ServerStep retransmit(ConnId conn, ServerEntry entry, RpcMessage.Call fullCall) {
        return ServerStep.of(ServerOutcome.RETRANSMIT_REPLY,
                new ServerEffect.Send(new RpcMessage.Reply(conn, entry.ts(), entry.reply().orElseThrow())));
    }

    /**
     * Figure 3-1, "Process Incoming REPLY-ACK messages": the entry after the ack, or null if the ack
     * must be ignored. Only the call whose reply is stored is acknowledged: a late REPLY-ACK of an
     * earlier call must not touch a newer call's entry, since turning a COMPUTING entry IDLE would
     * lose its reply and let GC collect it.
     */
    static ServerEntry acknowledged(ServerEntry entry, Timestamp ts) {
        if (entry == null || entry.state() != EntryState.REPLYING || !entry.ts().equals(ts)) {
            return null;
        }
        return new ServerEntry(EntryState.IDLE, entry.ts(), Optional.empty(), entry.replyTime());
    }

    /**
     * Figure 3-1, "Process completion of user-level computation": the REPLYING entry storing the
     * result and the reply time, or null if the completion must be ignored (the entry is gone or has
     * moved on to another call, as after a crash in between).
     */
    static ServerEntry completed(ServerEntry entry, Timestamp ts, Payload result, long now) {
        if (entry == null || entry.state() != EntryState.COMPUTING || !entry.ts().equals(ts)) {
            return null;
        }
        return new ServerEntry(EntryState.REPLYING, ts, Optional.of(result), now);
    }

    /** The step of a completion that {@link #completed} accepted: send the REPLY. */
    static ServerStep reply(ConnId conn, Timestamp ts, Payload result) {
        return ServerStep.of(ServerOutcome.REPLY, new ServerEffect.Send(new RpcMessage.Reply(conn, ts, result)));
    }

    /**
     * Figure 3-1 GC rule 1 ("If state is COMPUTING, do nothing") and rule 2's age test:
     * reply_time < clock - rho'. SCMP must also agree to drop its entry (ct <= clock - rho).
     */
    static boolean mayCollect(ServerEntry entry, long now, long rhoPrime) {
        return entry.state() != EntryState.COMPUTING && entry.replyTime() < now - rhoPrime;
    }

    /**
     * Paper 3.1's rho' = max(rho, kappa): a reply is kept kappa for a client "if it is still
     * interested", and never less than SCMP keeps the entry.
     */
    static long rhoPrime(long rho, long kappa) {
        return Math.max(rho, kappa);
    }

    static ServerStep reject(ConnId conn, Timestamp ts) {
        return ServerStep.of(ServerOutcome.REJECT, new ServerEffect.Send(new RpcMessage.Reject(conn, ts)));
    }
}
