package dev.onceproof.causal;

import java.util.Objects;

/**
 * A broadcast event as it travels: id, the origin's vector clock when it issued it (with
 * {@code vc[origin] = seq}), and the application's payload. A recovered copy is the same value, byte
 * for byte (paper 5.1: a resend is the message itself), which is what makes dropping a second copy
 * by id sound.
 */
public record Event(EventId id, VectorClock vc, Payload payload) {

    public Event {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(vc, "vc");
        Objects.requireNonNull(payload, "payload");
    }

    public NodeId origin() {
        return id.origin();
    }

    public long seq() {
        return id.seq();
    }
}
