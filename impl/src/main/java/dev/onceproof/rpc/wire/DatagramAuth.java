package dev.onceproof.rpc.wire;

import dev.onceproof.scmp.ConnId;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Wire format version 2 (see {@link dev.onceproof.rpc.wire}): a version 1 encoding with version byte
 * 2, followed by a key id and the HMAC-SHA256 tag, under the connection's key, of every byte before
 * the tag. {@link #open} checks all of it before a message reaches a protocol core, so a datagram
 * that does not prove its sender holds the key of the connection it names changes no state.
 * Stateless and thread-safe.
 */
public final class DatagramAuth {

    private DatagramAuth() {
    }

    /** How many bytes {@link #seal} writes for {@code message}. */
    public static int sealedLength(RpcMessage message) {
        return RpcEncoder.encodedLength(message) + WireFormat.AUTH_TRAILER;
    }

    /**
     * Writes {@code message} as a version 2 datagram under {@code key} at {@code target}'s position
     * and advances it.
     *
     * @return the number of bytes written, {@link #sealedLength}
     * @throws IllegalArgumentException if the message is too large for version 2 (its payload is
     *         above {@link WireFormat#MAX_PAYLOAD_AUTHENTICATED})
     */
    public static int seal(RpcMessage message, RpcKey key, ByteBuffer target) {
        int length = sealedLength(message);
        if (length > WireFormat.MAX_DATAGRAM) {
            throw new IllegalArgumentException(message.type() + " of " + message.conn() + " needs " + length
                    + " bytes as version 2, above the maximum datagram " + WireFormat.MAX_DATAGRAM);
        }
        ByteBuffer out = target.order() == ByteOrder.BIG_ENDIAN ? target : target.duplicate().order(ByteOrder.BIG_ENDIAN);
        int start = out.position();
        RpcEncoder.encode(message, out);
        out.put(start + 2, WireFormat.VERSION_AUTHENTICATED);
        out.put((byte) key.keyId());
        ByteBuffer signed = out.duplicate();
        signed.position(start).limit(out.position());
        key.tag(signed, out);
        if (out != target) {
            target.position(out.position());
        }
        return length;
    }

    /** {@link #seal} into a new array. */
    public static byte[] seal(RpcMessage message, RpcKey key) {
        byte[] out = new byte[sealedLength(message)];
        seal(message, key, ByteBuffer.wrap(out));
        return out;
    }

    /**
     * Opens a version 2 datagram: the message if it is well formed and its tag is right under the
     * key of the connection and key id it names; {@link DecodeResult.Unauthenticated} if it is a
     * version 1 datagram, names a key the keyring does not hold, or carries a wrong tag;
     * {@link DecodeResult.Malformed} as the decoder says otherwise. Never throws for any input.
     */
    public static DecodeResult open(byte[] buf, int from, int length, ConnId likely, Keyring keys) {
        java.util.Objects.checkFromIndexSize(from, length, buf.length);
        if (length > WireFormat.MAX_DATAGRAM) {
            return new DecodeResult.Malformed(DecodeError.TOO_LONG, WireFormat.MAX_DATAGRAM,
                    "datagram of " + length + " bytes is above the maximum " + WireFormat.MAX_DATAGRAM);
        }
        if (length > 2 && buf[from + 2] == WireFormat.VERSION
                && buf[from] == WireFormat.MAGIC_0 && buf[from + 1] == WireFormat.MAGIC_1) {
            return new DecodeResult.Unauthenticated(0,
                    "version 1 datagram carries no key id or tag; this endpoint requires version 2");
        }
        int body = length - WireFormat.AUTH_TRAILER;
        if (body < WireFormat.FIXED_PREFIX) {
            return new DecodeResult.Malformed(DecodeError.TOO_SHORT, length, "datagram of " + length
                    + " bytes is shorter than a version 2 prefix and its " + WireFormat.AUTH_TRAILER + "-byte trailer");
        }
        DecodeResult decoded = RpcDecoder.decode(buf, from, body, likely, WireFormat.VERSION_AUTHENTICATED);
        if (!(decoded instanceof DecodeResult.Decoded d)) {
            return decoded;
        }
        ConnId conn = d.message().conn();
        int keyId = buf[from + body] & 0xFF;
        RpcKey key = keys.key(conn, keyId);
        if (key == null) {
            return new DecodeResult.Unauthenticated(keyId, "no key id " + keyId + " for connection " + conn);
        }
        if (!key.verify(buf, from, body + 1, from + body + 1)) {
            return new DecodeResult.Unauthenticated(keyId, "tag does not match key id " + keyId + " of " + conn);
        }
        return decoded;
    }
}
