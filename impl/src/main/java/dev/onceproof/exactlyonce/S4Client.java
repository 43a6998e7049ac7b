package dev.onceproof.exactlyonce;

import java.util.List;

/** Strategy 4, Server Synchronization (L203): "Client has no state"; any connect is allowed. */
public final class S4Client extends GatherClient {

    public S4Client(ClientId self) {
        super(self);
    }

    @Override
    protected ConnectStep attempt(ServerId s) {
        return ConnectStep.connected(List.of());
    }

    @Override
    protected List<ClientEffect> ended(ServerId s) {
        return List.of();
    }
}
