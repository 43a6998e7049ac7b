package dev.onceproof.rpc.wire;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One HMAC-SHA256 key of one connection, with its key id (1..255) so that keys can rotate: a
 * keyring may hold several ids per connection, the sender uses the highest, the receiver accepts
 * any it holds. Thread-safe: each thread computes tags with its own {@link Mac}.
 */
public final class RpcKey {

    /** The shortest key accepted: HMAC-SHA256's block of security, 256 bits (RFC 2104 section 3). */
    public static final int MIN_KEY_BYTES = 32;
    public static final int TAG_BYTES = 32;

    private final int keyId;
    private final SecretKeySpec spec;
    private final ThreadLocal<Mac> mac;

    public RpcKey(int keyId, byte[] key) {
        if (keyId < 1 || keyId > 255) {
            throw new IllegalArgumentException("key id " + keyId + " is outside 1..255");
        }
        Objects.requireNonNull(key, "key");
        if (key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("key " + keyId + " has " + key.length + " bytes; at least "
                    + MIN_KEY_BYTES + " are required (HMAC-SHA256)");
        }
        this.keyId = keyId;
        this.spec = new SecretKeySpec(key.clone(), "HmacSHA256");
        this.mac = ThreadLocal.withInitial(this::newMac);
    }

    private Mac newMac() {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(spec);
            return m;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK offers no HmacSHA256", e);
        }
    }

    public int keyId() {
        return keyId;
    }

    /** Appends to {@code out} the tag of {@code signed}'s remaining bytes (consumed). */
    void tag(ByteBuffer signed, ByteBuffer out) {
        Mac m = mac.get();
        m.update(signed);
        out.put(m.doFinal());
    }

    /** Whether {@code buf[tagAt, tagAt + 32)} is the tag of {@code buf[from, from + length)}; constant time. */
    boolean verify(byte[] buf, int from, int length, int tagAt) {
        Mac m = mac.get();
        m.update(buf, from, length);
        byte[] expected = m.doFinal();
        byte[] got = java.util.Arrays.copyOfRange(buf, tagAt, tagAt + TAG_BYTES);
        // MessageDigest.isEqual is constant-time in its inputs' contents (JDK 6u17 and later).
        return MessageDigest.isEqual(expected, got);
    }

    @Override
    public String toString() {
        return "RpcKey[id " + keyId + "]";
    }
}
