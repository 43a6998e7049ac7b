package dev.onceproof.causal;

import java.util.Objects;

/**
 * What nodes send each other (the spec's envelope types). Every message names its sender, so a
 * node can refuse an unknown one and learn which node holds what.
 */
public sealed interface CausalMessage {

    /** The node that sent this datagram (for {@link Data}, the event's origin). */
    NodeId from();

    /** An event broadcast by its origin (spec envelope type "data"). */
    record Data(Event event) implements CausalMessage {
        public Data {
            Objects.requireNonNull(event, "event");
        }

        @Override
        public NodeId from() {
            return event.origin();
        }
    }

    /** A copy of an event sent by {@code from} in answer to a {@link Request} (type "resend"). */
    record Resend(NodeId from, Event event) implements CausalMessage {
        public Resend {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(event, "event");
        }
    }

    /** {@code from} misses event {@code id} and asks the receiver for it (type "req", paper 5.1). */
    record Request(NodeId from, EventId id) implements CausalMessage {
        public Request {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(id, "id");
        }
    }

    /**
     * {@code from}'s delivered prefix, sent while it is idle (type "hb"). Not in the paper: without
     * it a lost last event is never noticed (reading notes Z24), and it is how stability is learnt
     * when nobody broadcasts.
     */
    record Heartbeat(NodeId from, VectorClock vc) implements CausalMessage {
        public Heartbeat {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(vc, "vc");
        }
    }
}
