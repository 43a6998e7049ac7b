package dev.onceproof.scmp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A connection identifier, chosen by the client without consulting the server (paper 2.2: "a pair
 * (module id, uid)"). Together with a {@link Timestamp} it names one message.
 *
 * <p>Invariant: 1 to {@value #MAX_LENGTH} characters, each printable ASCII (0x21..0x7E), so an id
 * reads the same in TLA+ ({@code "c1"}), JSON traces, logs and datagrams.
 *
 * <p>A final value class with record-style API ({@code value()}, value equality) rather than a
 * record: Lincheck 2.39 walks the objects an operation touches with Unsafe field offsets, which the
 * JDK refuses for record classes ("can't get field offset on a record class", JetBrains/lincheck
 * #402); its only workaround, eager instrumentation, quadruples the suite's run time.
 */
public final class ConnId {

    /** Long enough for a module id and a uid; short enough to bound a table entry. */
    public static final int MAX_LENGTH = 128;

    /**
     * The id as its ASCII bytes, which is how it travels: a codec copies them in bulk, and an id
     * costs one array rather than a String and its array (16 bytes less per connection table
     * entry). Never modified or handed out.
     */
    private final byte[] ascii;
    private final int hash;

    public ConnId(String value) {
        if (value == null) {
            throw new IllegalArgumentException("connection id is null");
        }
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("connection id length " + value.length()
                    + " is outside 1.." + MAX_LENGTH);
        }
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch < 0x21 || ch > 0x7E) {
                throw new IllegalArgumentException("connection id has non-printable character 0x"
                        + Integer.toHexString(ch) + " at index " + i);
            }
        }
        this.ascii = value.getBytes(StandardCharsets.US_ASCII);
        this.hash = value.hashCode();
    }

    public static ConnId of(String value) {
        return new ConnId(value);
    }

    /** The id as a string (a new one each time: the id is stored as bytes). */
    public String value() {
        return new String(ascii, StandardCharsets.US_ASCII);
    }

    /** Its length in characters, which is also its length in bytes. */
    public int length() {
        return ascii.length;
    }

    /** Puts the id's bytes at {@code out}'s position and advances it. */
    public void writeTo(ByteBuffer out) {
        out.put(ascii);
    }

    /** Whether {@code length} bytes of {@code buf} from {@code from} are this id. */
    public boolean isAt(byte[] buf, int from, int length) {
        return Arrays.equals(ascii, 0, ascii.length, buf, from, from + length);
    }

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof ConnId c && c.hash == hash && Arrays.equals(c.ascii, ascii);
    }

    /** The hash of {@link #value()}, so ids spread in hash tables as their strings did. */
    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return value();
    }
}
