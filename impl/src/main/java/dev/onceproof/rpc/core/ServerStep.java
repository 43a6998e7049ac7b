package dev.onceproof.rpc.core;

import java.util.List;
import java.util.Objects;

/**
 * The result of one {@link RpcServerCore} step: what happened and what the caller must do.
 *
 * <p><b>Ordering rule.</b> Carry out {@code effects} in list order. The core has already done its
 * own durable work before returning (SCMP's latest is on stable storage before it bounds an
 * accepted timestamp, Fig. 2-2), so a {@code Send} may go out at once. An {@code Execute}'s
 * results must be durable before the caller reports them with {@link RpcServerCore#complete},
 * whose {@code Send} of the REPLY therefore always follows durable execution.
 *
 * @param effects immutable
 */
public record ServerStep(ServerOutcome outcome, List<ServerEffect> effects) {

    public ServerStep {
        Objects.requireNonNull(outcome, "outcome");
        effects = List.copyOf(effects);
    }

    // Fixed-arity factories: no varargs array per step on the runtime's hot path.

    static ServerStep of(ServerOutcome outcome) {
        return new ServerStep(outcome, List.of());
    }

    static ServerStep of(ServerOutcome outcome, ServerEffect effect) {
        return new ServerStep(outcome, List.of(effect));
    }
}
