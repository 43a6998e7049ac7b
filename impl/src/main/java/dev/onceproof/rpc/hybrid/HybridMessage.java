package dev.onceproof.rpc.hybrid;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.util.Objects;

/**
 * The hybrid's messages (Hybrid.tla, {@code Msg(type, conn, seq, inc, ts)}). Every message names its
 * call by client uid and sequence number and carries the incarnation the client bound to; {@code ts}
 * is the sender's clock reading for CALL and ACK, and for a REPLY the timestamp of the call copy it
 * answers.
 */
public sealed interface HybridMessage {

    ConnId conn();

    long seq();

    long inc();

    Timestamp ts();

    /** The spec's message type: "CALL", "REPLY" or "ACK". */
    String specType();

    record Call(ConnId conn, long seq, long inc, Timestamp ts) implements HybridMessage {
        public Call {
            check(conn, seq, inc, ts);
        }

        @Override
        public String specType() {
            return "CALL";
        }
    }

    record Reply(ConnId conn, long seq, long inc, Timestamp ts) implements HybridMessage {
        public Reply {
            check(conn, seq, inc, ts);
        }

        @Override
        public String specType() {
            return "REPLY";
        }
    }

    record Ack(ConnId conn, long seq, long inc, Timestamp ts) implements HybridMessage {
        public Ack {
            check(conn, seq, inc, ts);
        }

        @Override
        public String specType() {
            return "ACK";
        }
    }

    private static void check(ConnId conn, long seq, long inc, Timestamp ts) {
        Objects.requireNonNull(conn, "conn");
        Objects.requireNonNull(ts, "ts");
        if (seq < 1) {
            throw new IllegalArgumentException("sequence number " + seq + " of " + conn.value()
                    + " is below 1: calls are numbered from 1 (Hybrid.tla, Call)");
        }
        if (inc < 1) {
            throw new IllegalArgumentException("incarnation " + inc + " of " + conn.value()
                    + " is below 1: a message is sent only after binding (Hybrid.tla, Bind)");
        }
    }
}
