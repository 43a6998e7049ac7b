package dev.onceproof.exactlyonce;

/** Shared validation of the printable names that ids are made of. */
final class Ids {

    /** Long enough for a host name or a device id; short enough to bound a stored id list. */
    static final int MAX_LENGTH = 64;

    private Ids() {
    }

    /**
     * Checks {@code value} is 1..{@value #MAX_LENGTH} printable ASCII characters other than space
     * and {@code '.'} (the separator of a sequenced note id), so an id reads the same in TLA+
     * ({@code "A"}), JSON traces, logs and store files.
     */
    static String checkName(String what, String value) {
        if (value == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(what + " \"" + value + "\" has length " + value.length()
                    + ", outside 1.." + MAX_LENGTH);
        }
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch < 0x21 || ch > 0x7E || ch == '.') {
                throw new IllegalArgumentException(what + " \"" + value + "\" has a forbidden character 0x"
                        + Integer.toHexString(ch) + " at index " + i + " (printable ASCII, no '.')");
            }
        }
        return value;
    }
}
