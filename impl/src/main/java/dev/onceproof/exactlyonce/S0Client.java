package dev.onceproof.exactlyonce;

import java.util.Objects;

/**
 * Strategy 0, the at-least-once baseline (App. B.1, L809; the protocol is ours, notes Z16): the
 * client keeps no state and processes every note it receives, so a note whose acknowledgement is
 * lost is processed again when it is resent. That duplicate is the reason Strategies 1-3 exist.
 */
public final class S0Client extends Connection {

    private final Limits limits = Limits.global();

    public S0Client(ClientId self) {
        super(self);
    }

    @Override
    public ClientStep receiveNote(EoMessage.NoteDelivery m) {
        ClientCore.checkAddressed(self, limits, m);
        return ClientCore.accept(ClientOrdering.RECORD_THEN_ACK, new ClientStableState.Stateless(), m, self);
    }

    @Override
    public ClientStableState stable() {
        return new ClientStableState.Stateless();
    }
}
