package dev.onceproof.rpc.core;

import java.util.List;
import java.util.Objects;

/**
 * The result of one {@link RpcClientCore} step. Carry out {@code effects} in list order; the client
 * core has no durable state, so there is no durability rule on its side.
 *
 * @param action  the spec action the step was (Call, Retransmit, Timeout, ReceiveAck,
 *                ReceiveReply, ReceiveReject), or "Ignore" when the step changed nothing
 * @param effects immutable
 */
public record ClientStep(String action, List<ClientEffect> effects) {

    public static final String IGNORE = "Ignore";

    public ClientStep {
        Objects.requireNonNull(action, "action");
        effects = List.copyOf(effects);
    }

    public boolean ignored() {
        return IGNORE.equals(action);
    }

    // Fixed-arity factories: no varargs array per step on the runtime's hot path.

    static ClientStep of(String action) {
        return new ClientStep(action, List.of());
    }

    static ClientStep of(String action, ClientEffect first, ClientEffect second) {
        return new ClientStep(action, List.of(first, second));
    }

    static ClientStep of(String action, ClientEffect first, ClientEffect second, ClientEffect third) {
        return new ClientStep(action, List.of(first, second, third));
    }
}
