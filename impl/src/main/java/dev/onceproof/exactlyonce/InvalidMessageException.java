package dev.onceproof.exactlyonce;

/**
 * A message (or a message component) a core refuses: a field out of range or addressed elsewhere.
 * Thrown before the core changes any state, so a bad message is dropped whole and nothing is lost.
 */
public final class InvalidMessageException extends IllegalArgumentException {

    private final String field;

    public InvalidMessageException(String field, String problem) {
        super("field " + field + ": " + problem);
        this.field = field;
    }

    /** The offending field as a path, e.g. {@code note.id.seq}. */
    public String field() {
        return field;
    }
}
