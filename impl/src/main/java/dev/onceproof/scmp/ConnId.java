package dev.onceproof.scmp;

/**
 * A connection identifier, chosen by the client without consulting the server (paper 2.2: "a pair
 * (module id, uid)"). Together with a {@link Timestamp} it names one message.
 *
 * <p>Invariant: 1 to {@value #MAX_LENGTH} characters, each printable ASCII (0x21..0x7E), so an id
 * reads the same in TLA+ ({@code "c1"}), JSON traces, logs and datagrams.
 */
public record ConnId(String value) {

    /** Long enough for a module id and a uid; short enough to bound a table entry. */
    public static final int MAX_LENGTH = 128;

    public ConnId {
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
    }

    public static ConnId of(String value) {
        return new ConnId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
