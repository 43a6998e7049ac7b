package dev.onceproof.conformance.tla;

/** A value TLC printed that this parser does not understand; names the offset and shows the text. */
public final class TlaParseException extends RuntimeException {

    private final int offset;

    public TlaParseException(String input, int offset, String problem) {
        super(problem + " at offset " + offset + " (line " + lineOf(input, offset) + ", column "
                + columnOf(input, offset) + "): " + excerpt(input, offset));
        this.offset = offset;
    }

    public int offset() {
        return offset;
    }

    private static int lineOf(String s, int offset) {
        int line = 1;
        for (int i = 0; i < Math.min(offset, s.length()); i++) {
            if (s.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static int columnOf(String s, int offset) {
        int lineStart = s.lastIndexOf('\n', Math.max(0, Math.min(offset, s.length()) - 1)) + 1;
        return offset - lineStart + 1;
    }

    /** Up to 30 characters either side, with a marker where the parser stopped. */
    private static String excerpt(String s, int offset) {
        int at = Math.min(offset, s.length());
        int from = Math.max(0, at - 30);
        int to = Math.min(s.length(), at + 30);
        return "\"" + s.substring(from, at).replace("\n", "\\n") + "\u2038"
                + s.substring(at, to).replace("\n", "\\n") + "\"";
    }
}
