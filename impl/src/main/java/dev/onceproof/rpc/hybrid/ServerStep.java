package dev.onceproof.rpc.hybrid;

import java.util.Objects;
import java.util.Optional;

/**
 * The result of one CALL at the server: the outcome and the REPLY to send, if any. Ordering rule: the
 * reply may be sent at once; the only stable state is the incarnation ({@link HybridServerCore#recover}).
 */
public record ServerStep(CallOutcome outcome, Optional<HybridMessage.Reply> send) {

    public ServerStep {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(send, "send");
    }
}
