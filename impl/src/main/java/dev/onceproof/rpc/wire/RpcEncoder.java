package dev.onceproof.rpc.wire;

import java.nio.charset.StandardCharsets;

/** Encodes messages in the format of {@link dev.onceproof.rpc.wire}; stateless and thread-safe. */
public final class RpcEncoder {

    private RpcEncoder() {
    }

    /** The datagram for {@code message}; never longer than {@link WireFormat#MAX_DATAGRAM}. */
    public static byte[] encode(RpcMessage message) {
        // ConnId guarantees 1..128 printable ASCII chars, so one byte per char.
        byte[] conn = message.conn().value().getBytes(StandardCharsets.US_ASCII);
        Payload payload = payloadOf(message);
        MessageType type = message.type();
        int length = WireFormat.FIXED_PREFIX + conn.length + 8
                + (type.hasPayload() ? 4 + payload.length() : 0);
        byte[] out = new byte[length];
        out[0] = WireFormat.MAGIC_0;
        out[1] = WireFormat.MAGIC_1;
        out[2] = WireFormat.VERSION;
        out[3] = type.code();
        out[4] = (byte) conn.length;
        System.arraycopy(conn, 0, out, WireFormat.FIXED_PREFIX, conn.length);
        int at = WireFormat.FIXED_PREFIX + conn.length;
        putLong(out, at, message.ts().value());
        at += 8;
        if (type.hasPayload()) {
            putInt(out, at, payload.length());
            payload.copyTo(out, at + 4);
        }
        return out;
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

    private static void putLong(byte[] out, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            out[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static void putInt(byte[] out, int at, int v) {
        out[at] = (byte) (v >>> 24);
        out[at + 1] = (byte) (v >>> 16);
        out[at + 2] = (byte) (v >>> 8);
        out[at + 3] = (byte) v;
    }
}
