package dev.onceproof.rpc.hybrid;

import dev.onceproof.rpc.hybrid.HybridClientState.Outcome;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;

/**
 * One client of the hybrid (Hybrid.tla, client steps): binds, numbers its calls, and stamps every
 * CALL, retransmission and ACK with its clock reading, strictly increasing. That monotonic stamp is
 * what gives 3.2's proviso ("timestamps in call messages for an RPC are always less than those of
 * acks for that RPC or call messages for later RPCs") and lets the client retry indefinitely: a
 * retry is never older than the server's upper for long. Sans-IO: the clock is injected; a step
 * returns the message to send, which may be sent at once (nothing is stable on the client).
 */
public final class HybridClientCore {

    private final ConnId conn;
    private final InstantSource clock;
    private long inc;
    private long seq;
    /** Invariant: the timestamp of the latest CALL or ACK sent; every later one is above it. */
    private long ts;
    private boolean waiting;
    private Outcome outcome = Outcome.NONE;

    /**
     * @param lastTs the timestamp the client last sent (stamps continue strictly above it)
     */
    public HybridClientCore(ConnId conn, InstantSource clock, long lastTs) {
        this.conn = Objects.requireNonNull(conn, "conn");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ts = lastTs;
    }

    /** The binding handshake's result: the server's incarnation. Not while a call is outstanding. */
    public void bind(long incarnation) {
        if (waiting) {
            throw new IllegalStateException(conn.value() + " binds while call " + seq
                    + " is outstanding (Hybrid.tla, Bind needs ~waiting)");
        }
        if (incarnation < 1) {
            throw new IllegalArgumentException("incarnation " + incarnation + " is below 1");
        }
        inc = incarnation;
    }

    /** A new call, stamped max(clock, last + 1). */
    public HybridMessage.Call call() {
        if (inc == 0) {
            throw new IllegalStateException(conn.value() + " calls before binding (Hybrid.tla, Call needs inc # 0)");
        }
        if (waiting) {
            throw new IllegalStateException(conn.value() + " calls while call " + seq + " is outstanding");
        }
        seq++;
        ts = nextTs();
        waiting = true;
        outcome = Outcome.NONE;
        return new HybridMessage.Call(conn, seq, inc, Timestamp.of(ts));
    }

    /**
     * The outstanding call again, stamped with the current clock reading; empty when the clock has
     * not moved past the last stamp (one retransmission per reading, as the spec allows).
     */
    public Optional<HybridMessage.Call> retransmit() {
        if (!waiting) {
            throw new IllegalStateException(conn.value() + " retransmits with no call outstanding");
        }
        long reading = clock.millis();
        if (reading <= ts) {
            return Optional.empty();
        }
        ts = reading;
        return Optional.of(new HybridMessage.Call(conn, seq, inc, Timestamp.of(ts)));
    }

    /** The client gives up on the outstanding call: outcome unknown. */
    public void timeout() {
        if (!waiting) {
            throw new IllegalStateException(conn.value() + " times out with no call outstanding");
        }
        waiting = false;
        outcome = Outcome.UNKNOWN;
    }

    /**
     * The reply of the outstanding call ends it and is answered by an explicit ACK stamped above every
     * CALL copy sent; any other reply is ignored (empty).
     */
    public Optional<HybridMessage.Ack> receiveReply(HybridMessage.Reply m) {
        if (!waiting || !m.conn().equals(conn) || m.seq() != seq) {
            return Optional.empty();
        }
        ts = nextTs();
        waiting = false;
        outcome = Outcome.REPLIED;
        return Optional.of(new HybridMessage.Ack(conn, seq, m.inc(), Timestamp.of(ts)));
    }

    public HybridClientState state() {
        return new HybridClientState(inc, seq, ts, waiting, outcome);
    }

    private long nextTs() {
        return Math.max(clock.millis(), ts + 1);
    }
}
