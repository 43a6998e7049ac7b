package dev.onceproof.scmp;

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

    private final String value;

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
        this.value = value;
    }

    public static ConnId of(String value) {
        return new ConnId(value);
    }

    public String value() {
        return value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ConnId c && c.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}
