package dev.onceproof.exactlyonce;

import com.google.common.collect.ImmutableSortedSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Strategy 3, Id List (3.2, App. A.4 client): the client keeps the ids it processed in R, at most
 * q of them. A note in R is acknowledged and ignored; a new one is processed and inserted, as one
 * durable write (L127); when R is full the client refuses, without acknowledging, "until it
 * receives a purging authorization" (L169). Ids leave R only on a server's "Please purge i", which
 * a server sends only once i is in every server's D and no copy can linger (L131).
 */
public final class S3Client extends Connection {

    private final int q;
    private final Limits limits = Limits.global();
    private final ClientOrdering ordering;
    /** R. Invariant: {@code r.size() <= q}. */
    private final TreeSet<NoteId> r;

    public S3Client(ClientId self, int q, ClientStableState.IdList stable, ClientOrdering ordering) {
        super(self);
        if (q < 1) {
            throw new IllegalArgumentException("R needs at least one slot, q = " + q);
        }
        if (stable.r().size() > q) {
            throw new IllegalArgumentException("stored R holds " + stable.r().size() + " ids, above q = " + q);
        }
        this.q = q;
        this.ordering = Objects.requireNonNull(ordering, "ordering");
        this.r = new TreeSet<>(stable.r());
    }

    public static S3Client fresh(ClientId self, int q) {
        return new S3Client(self, q, new ClientStableState.IdList(new TreeSet<>()), ClientOrdering.RECORD_THEN_ACK);
    }

    @Override
    public ClientStep receiveNote(EoMessage.NoteDelivery m) {
        ClientCore.checkAddressed(self, limits, m);
        NoteId id = m.note().id();
        if (r.contains(id)) {
            return ClientCore.duplicate(Verdict.DUPLICATE, m, self);
        }
        if (r.size() >= q) {
            return new ClientStep(Verdict.R_FULL, List.of());
        }
        r.add(id);
        return ClientCore.accept(ordering, stable(), m, self);
    }

    /** The spec's {@code ClientRecvPurge(i)}: drop i from R durably, then acknowledge. */
    public ClientStep receivePurge(EoMessage.PurgeRequest m) {
        if (!m.to().equals(self)) {
            throw new InvalidMessageException("to", "purge of " + m.id() + " is for client " + m.to()
                    + ", this is client " + self);
        }
        limits.check("id", m.id());
        r.remove(m.id());
        return new ClientStep(Verdict.PURGED, List.of(
                new ClientEffect.Record(stable(), Optional.empty()),
                new ClientEffect.Send(new EoMessage.PurgeAck(self, m.from(), m.id()))));
    }

    public int q() {
        return q;
    }

    @Override
    public ClientStableState.IdList stable() {
        return new ClientStableState.IdList(ImmutableSortedSet.copyOfSorted(r));
    }
}
