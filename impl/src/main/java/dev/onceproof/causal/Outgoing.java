package dev.onceproof.causal;

import java.util.Objects;

/** Send {@code message} to node {@code to} (best effort: loss, duplication and reordering are tolerated). */
public record Outgoing(NodeId to, CausalMessage message) {

    public Outgoing {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(message, "message");
    }
}
