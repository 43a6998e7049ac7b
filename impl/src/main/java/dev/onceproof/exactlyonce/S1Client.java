package dev.onceproof.exactlyonce;

import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Strategy 1, Sequenced Streams (3.1, App. A.2): the client accepts note x.s only when
 * {@code s = R[x] + 1} and then sets {@code R[x] = s}, the two as one durable write (L77, L530).
 * A note at or below {@code R[x]} was processed before: acknowledged, not processed. A gap
 * ({@code s > R[x] + 1}) is neither processed nor acknowledged (notes Z2: acknowledging a gap would
 * let the server drop a note the client never processed).
 */
public final class S1Client extends Connection {

    private final Limits limits;
    private final ClientOrdering ordering;
    /** R[x]; absent = 0. Only grows, by one at a time per stream. */
    private final TreeMap<ServerId, Long> r;

    public S1Client(ClientId self, ClientStableState.Streams stable) {
        this(self, stable, ClientOrdering.RECORD_THEN_ACK);
    }

    public S1Client(ClientId self, ClientStableState.Streams stable, ClientOrdering ordering) {
        super(self);
        this.limits = Limits.streams();
        this.ordering = Objects.requireNonNull(ordering, "ordering");
        stable.r().forEach((x, s) -> {
            if (s < 0) {
                throw new IllegalArgumentException("stored R[" + x + "] = " + s + " is negative");
            }
        });
        this.r = new TreeMap<>(stable.r());
    }

    public static S1Client fresh(ClientId self) {
        return new S1Client(self, new ClientStableState.Streams(new TreeMap<>()));
    }

    @Override
    public ClientStep receiveNote(EoMessage.NoteDelivery m) {
        ClientCore.checkAddressed(self, limits, m);
        NoteId.Sequenced id = (NoteId.Sequenced) m.note().id();
        long last = r.getOrDefault(id.server(), 0L);
        if (id.seq() <= last) {
            return ClientCore.duplicate(Verdict.DISCARDED, m, self);
        }
        if (id.seq() > last + 1) {
            return new ClientStep(Verdict.OUT_OF_ORDER, java.util.List.of());
        }
        r.put(id.server(), id.seq());
        return ClientCore.accept(ordering, stable(), m, self);
    }

    /** R[x] for stream {@code x} (0 before its first note). */
    public long lastAccepted(ServerId x) {
        return r.getOrDefault(x, 0L);
    }

    @Override
    public ClientStableState.Streams stable() {
        SortedMap<ServerId, Long> copy = new TreeMap<>(r);
        return new ClientStableState.Streams(copy);
    }
}
