package dev.onceproof.exactlyonce;

import java.util.Objects;
import java.util.TreeMap;

/**
 * Strategy 2, Sequenced Wrap-around Streams (3.2): as Strategy 1 with sequence numbers in
 * {@code 0..W-1}: the client accepts x.s only when {@code s = (R[x] + 1) mod W}, atomically with
 * setting {@code R[x] = s} (initially {@code R[x] = W - 1}, so the first note is x.0). Any other
 * number is acknowledged and not processed: with wrap-around the client cannot tell an old note
 * from a gap, and it is Condition 1 on the servers that makes sure an unexpected number is old.
 */
public final class S2Client extends Connection {

    private final int w;
    private final Limits limits;
    private final ClientOrdering ordering;
    /** R[x] in 0..W-1; absent = W-1. */
    private final TreeMap<ServerId, Long> r;

    public S2Client(ClientId self, int w, ClientStableState.Streams stable, ClientOrdering ordering) {
        super(self);
        this.limits = Limits.wrapAround(w);
        this.w = w;
        this.ordering = Objects.requireNonNull(ordering, "ordering");
        stable.r().forEach((x, s) -> {
            if (s < 0 || s >= w) {
                throw new IllegalArgumentException("stored R[" + x + "] = " + s + " is outside 0.." + (w - 1));
            }
        });
        this.r = new TreeMap<>(stable.r());
    }

    public static S2Client fresh(ClientId self, int w) {
        return new S2Client(self, w, new ClientStableState.Streams(new TreeMap<>()), ClientOrdering.RECORD_THEN_ACK);
    }

    @Override
    public ClientStep receiveNote(EoMessage.NoteDelivery m) {
        ClientCore.checkAddressed(self, limits, m);
        NoteId.Sequenced id = (NoteId.Sequenced) m.note().id();
        long expected = (lastAccepted(id.server()) + 1) % w;
        if (id.seq() != expected) {
            return ClientCore.duplicate(Verdict.DISCARDED, m, self);
        }
        r.put(id.server(), id.seq());
        return ClientCore.accept(ordering, stable(), m, self);
    }

    public long lastAccepted(ServerId x) {
        return r.getOrDefault(x, w - 1L);
    }

    public int w() {
        return w;
    }

    @Override
    public ClientStableState.Streams stable() {
        return new ClientStableState.Streams(new TreeMap<>(r));
    }

}
