package dev.onceproof.rpc.wire;

import dev.onceproof.rpc.wire.DecodeResult.Decoded;
import dev.onceproof.rpc.wire.DecodeResult.Malformed;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The strict decoder of {@link dev.onceproof.rpc.wire}: accepts exactly what {@link RpcEncoder}
 * produces and reports anything else as a {@link Malformed} with the field's byte offset. It checks
 * every rule before building a value type, so no input can make it throw (the fuzz suite in
 * conformance/ feeds it millions of mutated datagrams). Stateless and thread-safe.
 */
public final class RpcDecoder {

    /** Big-endian views of a byte array: one bounds check and one load per field. */
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private RpcDecoder() {
    }

    public static DecodeResult decode(byte[] datagram) {
        return decode(datagram, 0, datagram.length);
    }

    /** Decodes {@code length} bytes of {@code buf} starting at {@code from}; offsets are relative. */
    public static DecodeResult decode(byte[] buf, int from, int length) {
        return decode(buf, from, length, null);
    }

    /**
     * As {@link #decode(byte[], int, int)}, but if the datagram's connection id is {@code likely}'s
     * (a client's own id, the previous datagram's on a server) the message carries that instance
     * instead of a new one: same value, no string built and validated again on the hot path.
     */
    public static DecodeResult decode(byte[] buf, int from, int length, ConnId likely) {
        return decode(buf, from, length, likely, WireFormat.VERSION);
    }

    /**
     * As {@link #decode(byte[], int, int, ConnId)} for the message body of a version-2 datagram
     * (see {@link DatagramAuth}): the same layout with version byte {@code version}; the caller has
     * cut off the authentication trailer.
     */
    static DecodeResult decode(byte[] buf, int from, int length, ConnId likely, byte version) {
        // A slice outside the array is the caller's bug, not a malformed datagram.
        java.util.Objects.checkFromIndexSize(from, length, buf.length);
        if (length > WireFormat.MAX_DATAGRAM) {
            return new Malformed(DecodeError.TOO_LONG, WireFormat.MAX_DATAGRAM,
                    "datagram of " + length + " bytes is above the maximum " + WireFormat.MAX_DATAGRAM);
        }
        if (length < WireFormat.FIXED_PREFIX) {
            return new Malformed(DecodeError.TOO_SHORT, length, "datagram of " + length
                    + " bytes is shorter than the " + WireFormat.FIXED_PREFIX + "-byte prefix");
        }
        if (buf[from] != WireFormat.MAGIC_0 || buf[from + 1] != WireFormat.MAGIC_1) {
            return new Malformed(DecodeError.BAD_MAGIC, 0, String.format(
                    "magic 0x%02X%02X is not 0x4F50 (\"OP\")", buf[from], buf[from + 1]));
        }
        if (buf[from + 2] != version) {
            return new Malformed(DecodeError.UNKNOWN_VERSION, 2, "version " + (buf[from + 2] & 0xFF)
                    + " is not the expected version " + version);
        }
        MessageType type = MessageType.fromCode(buf[from + 3]);
        if (type == null) {
            return new Malformed(DecodeError.UNKNOWN_TYPE, 3,
                    "type " + (buf[from + 3] & 0xFF) + " is not one of 1..6");
        }
        int connLength = buf[from + 4] & 0xFF;
        if (connLength < 1 || connLength > ConnId.MAX_LENGTH) {
            return new Malformed(DecodeError.BAD_CONN_LENGTH, 4,
                    "connLength " + connLength + " is outside 1.." + ConnId.MAX_LENGTH);
        }
        int at = WireFormat.FIXED_PREFIX;
        if (length < at + connLength + 8) {
            return new Malformed(DecodeError.TOO_SHORT, length, type + " with connLength " + connLength
                    + " needs at least " + (at + connLength + 8) + " bytes, got " + length);
        }
        // The id the caller expects needs no check: its bytes are a valid ConnId's.
        ConnId conn = likely != null && likely.isAt(buf, from + at, connLength) ? likely : null;
        if (conn == null) {
            for (int i = 0; i < connLength; i++) {
                int ch = buf[from + at + i] & 0xFF;
                if (ch < 0x21 || ch > 0x7E) {
                    return new Malformed(DecodeError.INVALID_CONN_ID, at + i, String.format(
                            "conn byte 0x%02X at index %d is not printable ASCII 0x21..0x7E", ch, i));
                }
            }
            conn = new ConnId(new String(buf, from + at, connLength, StandardCharsets.US_ASCII));
        }
        at += connLength;
        long ts = getLong(buf, from + at);
        if (ts > Timestamp.LIMIT || ts < -Timestamp.LIMIT) {
            return new Malformed(DecodeError.TIMESTAMP_OUT_OF_RANGE, at,
                    "ts " + ts + " is outside -2^62..2^62, the range of a Timestamp");
        }
        at += 8;
        Payload payload = Payload.EMPTY;
        if (type.hasPayload()) {
            if (length < at + 4) {
                return new Malformed(DecodeError.TOO_SHORT, length, type + " needs a 4-byte payloadLength at "
                        + at + ", datagram has " + length + " bytes");
            }
            long payloadLength = getInt(buf, from + at) & 0xFFFF_FFFFL;
            if (payloadLength > WireFormat.MAX_PAYLOAD) {
                return new Malformed(DecodeError.BAD_PAYLOAD_LENGTH, at, "payloadLength " + payloadLength
                        + " is above the maximum " + WireFormat.MAX_PAYLOAD);
            }
            if (payloadLength > length - (at + 4)) {
                return new Malformed(DecodeError.BAD_PAYLOAD_LENGTH, at, "payloadLength " + payloadLength
                        + " runs past the end: only " + (length - at - 4) + " bytes follow");
            }
            at += 4;
            payload = Payload.copyOf(buf, from + at, (int) payloadLength);
            at += (int) payloadLength;
        }
        if (length != at) {
            return new Malformed(DecodeError.TRAILING_BYTES, at,
                    (length - at) + " bytes after the end of the " + type + " message");
        }
        Timestamp t = new Timestamp(ts);
        RpcMessage m = switch (type) {
            case CALL -> new RpcMessage.Call(conn, t, payload);
            case CALL_TRUNCATED -> new RpcMessage.TruncatedCall(conn, t);
            case ACK -> new RpcMessage.Ack(conn, t);
            case REPLY -> new RpcMessage.Reply(conn, t, payload);
            case REPLY_ACK -> new RpcMessage.ReplyAck(conn, t);
            case REJECT -> new RpcMessage.Reject(conn, t);
        };
        return new Decoded(m);
    }

    private static long getLong(byte[] b, int at) {
        return (long) LONG_BE.get(b, at);
    }

    private static int getInt(byte[] b, int at) {
        return (int) INT_BE.get(b, at);
    }
}
