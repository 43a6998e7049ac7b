package dev.onceproof.exactlyonce;

import java.util.Objects;

/**
 * A note: a message that needs a delivery guarantee (paper 1), addressed to one client.
 *
 * @param body the application content; at most {@value #MAX_BODY} characters so a stored or sent
 *     note stays bounded
 */
public record Note(NoteId id, ClientId client, String body) {

    public static final int MAX_BODY = 4096;

    public Note {
        Objects.requireNonNull(id, "note id");
        Objects.requireNonNull(client, "note client");
        Objects.requireNonNull(body, "note body");
        if (body.length() > MAX_BODY) {
            throw new InvalidMessageException("note.body", body.length() + " characters, above " + MAX_BODY);
        }
    }
}
