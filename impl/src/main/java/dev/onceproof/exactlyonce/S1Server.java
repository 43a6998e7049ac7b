package dev.onceproof.exactlyonce;

import java.util.Optional;

/**
 * Strategy 1, Sequenced Streams (3.1, App. A.2): notes of this server's stream are numbered
 * 1, 2, 3, ... by a durable counter (a counter lost in a crash reuses numbers: mutant M1-f); a
 * session walks K from each stream's lowest number and aborts on the first failed Deliver, so the
 * client never sees a gap it would have to skip (L87).
 */
public final class S1Server extends StreamServer {

    public S1Server(ServerConfig config, EoClock clock, ServerDurableState durable) {
        super(config, clock, Limits.streams(), durable);
    }

    @Override
    protected Optional<Long> nextSeq() {
        return Optional.of(ctr + 1);
    }

    /**
     * The spec's {@code FirstOfStream(s, i)}: no lower number of i's stream is in K (App. A.2 walks
     * K in order; which stream goes next is free, Z20).
     */
    @Override
    protected boolean mayOffer(NoteId i) {
        NoteId.Sequenced s = (NoteId.Sequenced) i;
        return k.subMap(NoteId.sequenced(s.server(), 0), i).isEmpty();
    }

    /** K sorts by server, then number, so its first id is the lowest number of some stream. */
    @Override
    protected Optional<NoteId> nextToSend() {
        return k.isEmpty() ? Optional.empty() : Optional.of(k.firstKey());
    }

    @Override
    public Strategy strategy() {
        return Strategy.S1;
    }
}
