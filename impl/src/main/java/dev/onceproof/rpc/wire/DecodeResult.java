package dev.onceproof.rpc.wire;

import java.util.Objects;

/**
 * What {@link RpcDecoder#decode} (or {@link DatagramAuth#open}) made of a datagram: a message, why and
 * where it is malformed, or why it is not authentic.
 */
public sealed interface DecodeResult {

    record Decoded(RpcMessage message) implements DecodeResult {
        public Decoded {
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * A well-formed version 2 datagram that does not prove it comes from a holder of its
     * connection's key (or a version 1 datagram where keys are required): {@link DatagramAuth}.
     *
     * @param keyId  the key id it names (0 for a version 1 datagram)
     * @param detail a sentence naming the connection, the key id and what failed
     */
    record Unauthenticated(int keyId, String detail) implements DecodeResult {
        public Unauthenticated {
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public String toString() {
            return "UNAUTHENTICATED: " + detail;
        }
    }

    /**
     * @param error  what is wrong
     * @param offset the byte offset of the offending field (for TOO_SHORT, where the missing bytes
     *               begin; for TRAILING_BYTES, the first extra byte)
     * @param detail a sentence naming the value and the rule
     */
    record Malformed(DecodeError error, int offset, String detail) implements DecodeResult {
        public Malformed {
            Objects.requireNonNull(error, "error");
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public String toString() {
            return error + " at byte " + offset + ": " + detail;
        }
    }
}
