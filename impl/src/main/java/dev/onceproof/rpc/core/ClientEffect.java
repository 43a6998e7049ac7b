package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.Timestamp;
import java.util.Objects;
import java.util.Optional;

/** What the caller of {@link RpcClientCore} must do after a step, in list order. */
public sealed interface ClientEffect {

    /** Send this datagram to the server. */
    record Send(RpcMessage message) implements ClientEffect {
        public Send {
            Objects.requireNonNull(message, "message");
        }
    }

    /** (Re)arm the connection's single timer; call {@link RpcClientCore#timerExpired} at that time. */
    record SetTimer(long atMillis) implements ClientEffect {
    }

    /** Disarm the connection's timer. */
    record CancelTimer() implements ClientEffect {
        /** All CancelTimers are equal; the core uses this one. */
        static final CancelTimer INSTANCE = new CancelTimer();
    }

    /**
     * Hand the call's end to the application; {@code reply} is present exactly for REPLIED. Always
     * the last effect of its step.
     */
    record Complete(Timestamp ts, CallOutcome outcome, Optional<Payload> reply) implements ClientEffect {
        public Complete {
            Objects.requireNonNull(ts, "ts");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(reply, "reply");
            if (outcome == CallOutcome.NONE || reply.isPresent() != (outcome == CallOutcome.REPLIED)) {
                throw new IllegalArgumentException("outcome " + outcome + (reply.isPresent() ? " with" : " without")
                        + " a reply; only REPLIED carries one");
            }
        }
    }
}
