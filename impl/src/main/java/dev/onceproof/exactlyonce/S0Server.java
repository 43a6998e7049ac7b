package dev.onceproof.exactlyonce;

import java.util.Optional;

/**
 * Strategy 0's server (notes Z16: Strategy 1's server; the difference that matters is the client,
 * which processes everything). A failed Deliver does not end the session ({@code continue}), since
 * order does not matter to a client that keeps no state.
 */
public final class S0Server extends StreamServer {

    public S0Server(ServerConfig config, EoClock clock, ServerDurableState durable) {
        super(config, clock, Limits.streams(), durable);
    }

    @Override
    protected Optional<Long> nextSeq() {
        return Optional.of(ctr + 1);
    }

    @Override
    protected boolean abortOnTimeout() {
        return false;
    }

    @Override
    protected Optional<NoteId> nextToSend() {
        return k.isEmpty() ? Optional.empty() : Optional.of(k.firstKey());
    }
}
