package dev.onceproof.causal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The application's bytes of one event: immutable (copied in and out), compared by content, so an
 * event and a recovered copy of it are equal values (the spec's UniqueContent).
 *
 * <p>A final class, not a record: {@link #EMPTY} is a static field, and Lincheck 2.39 cannot walk a
 * record reachable from one (lincheck#402).
 */
public final class Payload {

    public static final Payload EMPTY = new Payload(new byte[0]);

    private final byte[] bytes;

    private Payload(byte[] bytes) {
        this.bytes = bytes;
    }

    public static Payload of(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new Payload(bytes.clone());
    }

    public static Payload ofUtf8(String text) {
        return text.isEmpty() ? EMPTY : new Payload(text.getBytes(StandardCharsets.UTF_8));
    }

    public int length() {
        return bytes.length;
    }

    public byte[] toByteArray() {
        return bytes.length == 0 ? bytes : bytes.clone();
    }

    public String toUtf8() {
        return new String(bytes, StandardCharsets.UTF_8);
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
        return bytes.length <= 16 ? "Payload[" + HexFormat.of().formatHex(bytes) + "]" : "Payload[" + bytes.length + " bytes]";
    }
}
