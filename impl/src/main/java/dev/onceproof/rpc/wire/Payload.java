package dev.onceproof.rpc.wire;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The opaque bytes of a call's arguments or results. Immutable (copied in and out) and compared by
 * content, so messages and effects that carry it are values.
 *
 * <p>Zero bytes are always {@link #EMPTY}, and its array is handed out uncopied: a zero-length
 * array has nothing to mutate, and the paper's null call (3.1) carries empty arguments and results
 * in every message, so copying them would be most of the allocation on that path.
 *
 * <p>Invariant: at most {@link WireFormat#MAX_PAYLOAD} bytes, so every message encodes.
 */
public final class Payload {

    public static final Payload EMPTY = new Payload(new byte[0], false);

    private final byte[] bytes;

    private Payload(byte[] bytes, boolean copy) {
        if (bytes.length > WireFormat.MAX_PAYLOAD) {
            throw new IllegalArgumentException("payload of " + bytes.length
                    + " bytes is above the maximum " + WireFormat.MAX_PAYLOAD);
        }
        this.bytes = copy ? bytes.clone() : bytes;
    }

    public static Payload of(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new Payload(bytes, true);
    }

    public static Payload ofUtf8(String text) {
        return text.isEmpty() ? EMPTY : new Payload(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), false);
    }

    /** Wraps a slice the decoder has already bounds-checked. */
    static Payload copyOf(byte[] source, int offset, int length) {
        return length == 0 ? EMPTY : new Payload(Arrays.copyOfRange(source, offset, offset + length), false);
    }

    public int length() {
        return bytes.length;
    }

    /** A copy of the bytes; for zero bytes a shared zero-length array, which no one can mutate. */
    public byte[] toByteArray() {
        return bytes.length == 0 ? bytes : bytes.clone();
    }

    public String toUtf8() {
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    void copyTo(java.nio.ByteBuffer target) {
        target.put(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Payload p && Arrays.equals(bytes, p.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return bytes.length <= 16
                ? "Payload[" + HexFormat.of().formatHex(bytes) + "]"
                : "Payload[" + bytes.length + " bytes]";
    }
}
