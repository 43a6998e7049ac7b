package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.TimestampSource;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;

/**
 * The client side of one connection of the at-most-once RPC (paper 3.1): at most one outstanding
 * call (the paper's SunRPC modules are single-threaded; a client with concurrent calls uses one
 * connection per call in flight, 2.2). Sans-IO: it returns {@link ClientEffect}s and never sleeps,
 * sends or reads the wall clock except through the injected {@link InstantSource}.
 *
 * <p>Spec actions (specs/rpc/RPC.tla): {@link #call} (Call), {@link #retransmit} (Retransmit),
 * {@link #timeout} (Timeout), {@link #receive} (ReceiveAck, ReceiveReply, ReceiveReject).
 * {@link #timerExpired} is the runtime's entry: it is Retransmit or Timeout, whichever is due.
 *
 * <p><b>Acceptance rule</b> (spec ClientAcceptsOnlyOwnReply): an ACK, REPLY or REJECT counts only if
 * its conn is this connection's and its ts is the outstanding call's; anything else (a late reply
 * to an earlier call, a duplicate after the call ended) is ignored.
 *
 * <p><b>Not thread-safe.</b> One thread at a time per connection (the runtime's connection lock).
 */
public final class RpcClientCore {

    private final ConnId conn;
    private final InstantSource clock;
    private final RetryPolicy policy;
    /** Strictly increasing call ids from the clock (2.2: a counter supplies the low bits). */
    private final TimestampSource timestamps;

    private boolean waiting;
    /** The outstanding call's id and arguments; the arguments are dropped once the call ends. */
    private Timestamp ts;
    private Payload payload;
    private boolean acked;
    private int tries;
    /** When the armed timer fires; meaningful only while waiting. */
    private long deadline;
    private CallOutcome outcome = CallOutcome.NONE;

    public RpcClientCore(ConnId conn, InstantSource clock, RetryPolicy policy) {
        this(conn, clock, policy, 0);
    }

    /**
     * @param lastSent the last call id used on this connection (after a client restart), so the
     *                 next one is above it; the spec's initial {@code client[c].ts} in replay
     */
    public RpcClientCore(ConnId conn, InstantSource clock, RetryPolicy policy, long lastSent) {
        this.conn = Objects.requireNonNull(conn, "conn");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.timestamps = new TimestampSource(lastSent);
        this.ts = Timestamp.of(lastSent);
    }

    /**
     * Spec action Call(c): stamp a new call with the clock and send the full CALL.
     *
     * @throws IllegalStateException if a call is outstanding (one per connection)
     */
    public ClientStep call(Payload arguments) {
        Objects.requireNonNull(arguments, "arguments");
        if (waiting) {
            throw new IllegalStateException("connection " + conn + " already has call " + ts
                    + " outstanding; use one connection per concurrent call (paper 2.2)");
        }
        ts = timestamps.next(clock.millis());
        payload = arguments;
        waiting = true;
        acked = false;
        tries = 1;
        outcome = CallOutcome.NONE;
        return ClientStep.of("Call", new ClientEffect.Send(new RpcMessage.Call(conn, ts, payload)), arm());
    }

    /** The runtime's timer callback: Retransmit or Timeout when due, else nothing (a stale timer). */
    public ClientStep timerExpired() {
        if (!waiting || clock.millis() < deadline) {
            return ClientStep.of(ClientStep.IGNORE);
        }
        return tries < policy.maxTries() ? retransmit() : timeout();
    }

    /**
     * Spec action Retransmit(c): the same call again, same ts; truncated once the server has
     * acknowledged it (paper 3.1: "subsequent retransmissions send a truncated message").
     */
    public ClientStep retransmit() {
        requireWaiting("retransmit");
        if (tries >= policy.maxTries()) {
            throw new IllegalStateException("call " + ts + " was sent " + tries + " times, the maximum; time it out");
        }
        tries++;
        RpcMessage m = acked ? new RpcMessage.TruncatedCall(conn, ts) : new RpcMessage.Call(conn, ts, payload);
        return ClientStep.of("Retransmit", new ClientEffect.Send(m), arm());
    }

    /** Spec action Timeout(c): after maxTries transmissions, give up: OUTCOME_UNKNOWN. */
    public ClientStep timeout() {
        requireWaiting("timeout");
        if (tries < policy.maxTries()) {
            throw new IllegalStateException("call " + ts + " was sent " + tries + " of " + policy.maxTries()
                    + " times; retransmit before timing out");
        }
        return end(CallOutcome.OUTCOME_UNKNOWN, Optional.empty(), "Timeout");
    }

    /** A datagram from the server: spec actions ReceiveAck, ReceiveReply, ReceiveReject. */
    public ClientStep receive(RpcMessage m) {
        boolean own = waiting && m.conn().equals(conn) && m.ts().equals(ts);
        if (!own) {
            return ClientStep.of(ClientStep.IGNORE);
        }
        if (m instanceof RpcMessage.Ack) {
            acked = true;
            return ClientStep.of("ReceiveAck");
        }
        if (m instanceof RpcMessage.Reply r) {
            // The REPLY-ACK goes first: it is the hint that frees the server's stored reply.
            ClientEffect replyAck = new ClientEffect.Send(new RpcMessage.ReplyAck(conn, r.ts()));
            return ClientStep.of("ReceiveReply", replyAck, ClientEffect.CancelTimer.INSTANCE,
                    finish(CallOutcome.REPLIED, Optional.of(r.payload())));
        }
        if (m instanceof RpcMessage.Reject) {
            return end(CallOutcome.REJECTED_AS_DUPLICATE, Optional.empty(), "ReceiveReject");
        }
        return ClientStep.of(ClientStep.IGNORE); // a CALL or REPLY-ACK is not for a client
    }

    public ClientState state() {
        return new ClientState(waiting, ts.value(), acked, tries, outcome);
    }

    /** The last call id used, {@code state().ts()} without building the state (runtime hot path). */
    public long lastTimestamp() {
        return ts.value();
    }

    /** Transmissions of the current or last call, {@code state().tries()} without building the state. */
    public int tries() {
        return tries;
    }

    public ConnId conn() {
        return conn;
    }

    public RetryPolicy policy() {
        return policy;
    }

    /** The outstanding call's id, if any. */
    public Optional<Timestamp> outstanding() {
        return waiting ? Optional.of(ts) : Optional.empty();
    }

    private ClientEffect arm() {
        deadline = clock.millis() + policy.intervalMillis();
        return new ClientEffect.SetTimer(deadline);
    }

    private ClientStep end(CallOutcome how, Optional<Payload> reply, String action) {
        return ClientStep.of(action, ClientEffect.CancelTimer.INSTANCE, finish(how, reply));
    }

    /** Ends the outstanding call; returns the Complete effect, which must be its step's last. */
    private ClientEffect.Complete finish(CallOutcome how, Optional<Payload> reply) {
        waiting = false;
        outcome = how;
        payload = null;
        return new ClientEffect.Complete(ts, how, reply);
    }

    private void requireWaiting(String action) {
        if (!waiting) {
            throw new IllegalStateException(action + " needs an outstanding call on connection " + conn);
        }
    }
}
