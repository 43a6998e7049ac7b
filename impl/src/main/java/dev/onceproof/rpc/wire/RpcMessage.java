package dev.onceproof.rpc.wire;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.util.Objects;

/**
 * The messages of the at-most-once RPC protocol (paper 3.1, Figure 3-1), one record per type, with
 * the field names of specs/rpc/RPC.tla: {@code conn}, {@code ts} (the call id: "the client uid and
 * timestamp provide the unique call id"), {@code payload}.
 *
 * <p>Every message names the call it is about by (conn, ts). Only the CALL is an SCMP at-most-once
 * message; the others are datagrams whose loss or duplication the protocol tolerates.
 */
public sealed interface RpcMessage {

    ConnId conn();

    /** The call id: the timestamp of the CALL this message belongs to. */
    Timestamp ts();

    MessageType type();

    /** Client to server: start the call; every retransmission carries the same ts (paper 2.2). */
    record Call(ConnId conn, Timestamp ts, Payload payload) implements RpcMessage {
        public Call {
            Objects.requireNonNull(conn, "conn");
            Objects.requireNonNull(ts, "ts");
            Objects.requireNonNull(payload, "payload");
        }

        @Override
        public MessageType type() {
            return MessageType.CALL;
        }
    }

    /**
     * Client to server: a retransmission after the server acknowledged the CALL, with "only the
     * connection and call ids" (paper 3.1). The server can never start a call from it.
     */
    record TruncatedCall(ConnId conn, Timestamp ts) implements RpcMessage {
        public TruncatedCall {
            Objects.requireNonNull(conn, "conn");
            Objects.requireNonNull(ts, "ts");
        }

        @Override
        public MessageType type() {
            return MessageType.CALL_TRUNCATED;
        }
    }

    /** Server to client: a duplicate of the call being computed arrived (Figure 3-1, 3). */
    record Ack(ConnId conn, Timestamp ts) implements RpcMessage {
        public Ack {
            Objects.requireNonNull(conn, "conn");
            Objects.requireNonNull(ts, "ts");
        }

        @Override
        public MessageType type() {
            return MessageType.ACK;
        }
    }

    /** Server to client: the results of call (conn, ts), sent on completion and on duplicates. */
    record Reply(ConnId conn, Timestamp ts, Payload payload) implements RpcMessage {
        public Reply {
            Objects.requireNonNull(conn, "conn");
            Objects.requireNonNull(ts, "ts");
            Objects.requireNonNull(payload, "payload");
        }

        @Override
        public MessageType type() {
            return MessageType.REPLY;
        }
    }

    /** Client to server: a hint that the reply arrived, so the stored reply can go (paper 3.1). */
    record ReplyAck(ConnId conn, Timestamp ts) implements RpcMessage {
        public ReplyAck {
            Objects.requireNonNull(conn, "conn");
            Objects.requireNonNull(ts, "ts");
        }

        @Override
        public MessageType type() {
            return MessageType.REPLY_ACK;
        }
    }

    /**
     * Server to client: our addition to Figure 3-1. The SCMP filter flagged CALL (conn, ts) as a
     * duplicate and the connection table has no entry for that call (none for conn, or one for a
     * later call), so the paper's server would silently ignore it. The server promises it will
     * never start this call from now on (upper, or the entry's later ts, already covers ts and
     * both only grow, across crashes too); it cannot say whether the call ran before a crash or
     * before its entry was collected. The client reports REJECTED_AS_DUPLICATE instead of waiting
     * for a timeout.
     */
    record Reject(ConnId conn, Timestamp ts) implements RpcMessage {
        public Reject {
            Objects.requireNonNull(conn, "conn");
            Objects.requireNonNull(ts, "ts");
        }

        @Override
        public MessageType type() {
            return MessageType.REJECT;
        }
    }
}
