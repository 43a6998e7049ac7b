package dev.onceproof.rpc.wire;

import dev.onceproof.scmp.ConnId;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Encodes messages in the format of {@link dev.onceproof.rpc.wire}; stateless and thread-safe. */
public final class RpcEncoder {

    private RpcEncoder() {
    }

    /** The datagram for {@code message}; never longer than {@link WireFormat#MAX_DATAGRAM}. */
    public static byte[] encode(RpcMessage message) {
        byte[] out = new byte[encodedLength(message)];
        encode(message, ByteBuffer.wrap(out));
        return out;
    }

    /**
     * Writes the datagram for {@code message} into {@code target} at its position and advances it,
     * so a runtime can reuse one (direct) buffer per thread instead of allocating per message.
     *
     * @return the number of bytes written, {@link #encodedLength(RpcMessage)}
     * @throws java.nio.BufferOverflowException if {@code target} has less room than that
     */
    public static int encode(RpcMessage message, ByteBuffer target) {
        ConnId conn = message.conn();
        Payload payload = payloadOf(message);
        MessageType type = message.type();
        int length = encodedLength(message);
        if (target.remaining() < length) {
            throw new java.nio.BufferOverflowException();
        }
        ByteBuffer out = target.order() == ByteOrder.BIG_ENDIAN ? target : target.duplicate().order(ByteOrder.BIG_ENDIAN);
        out.put(WireFormat.MAGIC_0).put(WireFormat.MAGIC_1).put(WireFormat.VERSION).put(type.code())
                .put((byte) conn.length());
        // ConnId guarantees 1..128 printable ASCII chars and holds them as bytes: one bulk copy.
        conn.writeTo(out);
        out.putLong(message.ts().value());
        if (type.hasPayload()) {
            out.putInt(payload.length());
            payload.copyTo(out);
        }
        if (out != target) {
            target.position(out.position());
        }
        return length;
    }

    /** How many bytes {@link #encode} writes for {@code message}. */
    public static int encodedLength(RpcMessage message) {
        int length = WireFormat.FIXED_PREFIX + message.conn().length() + 8;
        return message.type().hasPayload() ? length + 4 + payloadOf(message).length() : length;
    }

    private static Payload payloadOf(RpcMessage message) {
        if (message instanceof RpcMessage.Call c) {
            return c.payload();
        }
        if (message instanceof RpcMessage.Reply r) {
            return r.payload();
        }
        return Payload.EMPTY;
    }
}
