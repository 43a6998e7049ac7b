package dev.onceproof.exactlyonce;

import java.util.Objects;
import java.util.Optional;

/** What the caller of a client core must do after a step; see {@link ClientStep} for the order. */
public sealed interface ClientEffect {

    /**
     * Make {@code state} durable, together with the processing of {@code processed} when present, as
     * ONE atomic durable write (L77, App. A remark L530: "the acceptance of a note and the
     * corresponding counter increment should be an atomic operation at the client"). A store does
     * it with {@code ClientStore.commit}.
     */
    record Record(ClientStableState state, Optional<Note> processed) implements ClientEffect {
        public Record {
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(processed, "processed");
        }
    }

    /** Send {@code message} to the server of the current connection (best effort). */
    record Send(EoMessage message) implements ClientEffect {
        public Send {
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * Strategy 6: make the connect history durable (one atomic write) before the effects after it:
     * {@code H[s] := OPEN} before the connection's first message, the end time at its end (Z17).
     */
    record RecordHistory(ClientHistory history) implements ClientEffect {
        public RecordHistory {
            Objects.requireNonNull(history, "history");
        }
    }
}
