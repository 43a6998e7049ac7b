package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Objects;

/**
 * The result of one server-core step: the outcome (as the spec's {@code lastAction} names it) and
 * what the caller must do.
 *
 * <p><b>Ordering rule.</b> Carry out {@code effects} in list order; a {@link ServerEffect.Record}
 * comes first and must be durable before any {@link ServerEffect.Send} after it leaves. So a
 * server never tells anyone (a sync reply, a purge authorization, a replica) about K or D it could
 * lose in a crash, and a note removed from K after an acknowledgement stays removed.
 */
public record ServerStep(String outcome, List<ServerEffect> effects) {

    public ServerStep {
        Objects.requireNonNull(outcome, "outcome");
        effects = List.copyOf(effects);
    }

    static ServerStep of(String outcome) {
        return new ServerStep(outcome, List.of());
    }
}
