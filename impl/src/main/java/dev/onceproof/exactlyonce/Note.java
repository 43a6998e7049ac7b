package dev.onceproof.exactlyonce;

import java.util.Objects;

/**
 * A note: a message that needs a delivery guarantee (paper 1), addressed to one client. The body
 * is at most {@value #MAX_BODY} characters so a stored or sent note stays bounded.
 *
 * <p>A final value class rather than a record: notes sit in the K of the Strategy 3 state Lincheck
 * explores, and Lincheck 2.39 cannot take field offsets of records (JetBrains/lincheck#402).
 */
public final class Note {

    public static final int MAX_BODY = 4096;

    private final NoteId id;
    private final ClientId client;
    private final String body;

    public Note(NoteId id, ClientId client, String body) {
        this.id = Objects.requireNonNull(id, "note id");
        this.client = Objects.requireNonNull(client, "note client");
        this.body = Objects.requireNonNull(body, "note body");
        if (body.length() > MAX_BODY) {
            throw new InvalidMessageException("note.body", body.length() + " characters, above " + MAX_BODY);
        }
    }

    public NoteId id() {
        return id;
    }

    public ClientId client() {
        return client;
    }

    public String body() {
        return body;
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof Note n && n.id.equals(id) && n.client.equals(client) && n.body.equals(body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, client, body);
    }

    @Override
    public String toString() {
        return "Note[" + id + " for " + client + ", " + body.length() + " chars]";
    }
}
