package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Objects;

/**
 * The result of one client-core step.
 *
 * <p><b>Ordering rule.</b> Carry out {@code effects} in list order: a {@link ClientEffect.Record}
 * always comes before the {@link ClientEffect.Send} of the acknowledgement, and the record (the new
 * R and the processing of the note, one write) must be durable before the acknowledgement leaves.
 * A crash between the two loses only the acknowledgement, and the server's resend is then a
 * duplicate the client recognises. Acknowledging first would let a crash lose an acknowledged note;
 * recording R apart from the processing would let it process a note twice.
 */
public record ClientStep(Verdict verdict, List<ClientEffect> effects) {

    public ClientStep {
        Objects.requireNonNull(verdict, "verdict");
        effects = List.copyOf(effects);
    }

    /** The acknowledgement this step sends, if any. */
    public boolean acknowledges() {
        return effects.stream().anyMatch(e -> e instanceof ClientEffect.Send);
    }
}
