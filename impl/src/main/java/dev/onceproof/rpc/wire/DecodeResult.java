package dev.onceproof.rpc.wire;

import java.util.Objects;

/** What {@link RpcDecoder#decode} made of a datagram: a message, or why and where it is malformed. */
public sealed interface DecodeResult {

    record Decoded(RpcMessage message) implements DecodeResult {
        public Decoded {
            Objects.requireNonNull(message, "message");
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
