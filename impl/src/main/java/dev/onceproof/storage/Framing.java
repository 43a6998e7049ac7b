package dev.onceproof.storage;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The byte framing every store codec writes with (the exactly-once states and operations, the
 * shared journal's records and images): a {@link DataOutputStream} into an array, read back whole,
 * with tags, counts that must fit what is left, and length-prefixed byte strings. A payload that
 * does not decode completely is a {@link CorruptSnapshotException} naming where it came from.
 */
public final class Framing {

    private Framing() {
    }

    /** Writes a payload. */
    @FunctionalInterface
    public interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    /** Reads a payload. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    public static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Reads all of {@code payload}: short or trailing bytes are corruption of {@code where}. */
    public static <T> T read(String where, byte[] payload, Reader<T> reader) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        try {
            T value = reader.read(in);
            if (in.available() != 0) {
                throw new IOException(in.available() + " bytes of trailing garbage");
            }
            return value;
        } catch (IOException | IllegalArgumentException e) {
            throw new CorruptSnapshotException(where, "payload does not decode: " + e.getMessage());
        }
    }

    /** A count, which must fit in the bytes left (so a damaged one cannot make a reader allocate). */
    public static int count(DataInputStream in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new IOException(what + " count " + n + " does not fit the " + in.available() + " bytes left");
        }
        return n;
    }

    public static void expectTag(DataInputStream in, int tag, String what) throws IOException {
        int got = in.readInt();
        if (got != tag) {
            throw new IOException(String.format("%s tag 0x%08X, expected 0x%08X", what, got, tag));
        }
    }

    /** A byte string as its length and its bytes. */
    public static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    public static byte[] readBytes(DataInputStream in, String what) throws IOException {
        byte[] b = new byte[count(in, what)];
        in.readFully(b);
        return b;
    }
}
