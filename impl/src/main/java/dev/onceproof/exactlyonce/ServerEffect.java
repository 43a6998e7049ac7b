package dev.onceproof.exactlyonce;

import java.util.Objects;

/** What the caller of a server core must do after a step; see {@link ServerStep} for the order. */
public sealed interface ServerEffect {

    /** Make {@code state} durable (one atomic write) before carrying out the effects after it. */
    record Record(ServerDurableState state) implements ServerEffect {
        public Record {
            Objects.requireNonNull(state, "state");
        }
    }

    /** Send {@code message} (to the client of the session, or to the server it names). */
    record Send(EoMessage message) implements ServerEffect {
        public Send {
            Objects.requireNonNull(message, "message");
        }
    }
}
