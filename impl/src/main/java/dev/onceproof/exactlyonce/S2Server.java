package dev.onceproof.exactlyonce;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Strategy 2, Sequenced Wrap-around Streams (3.2): numbers {@code ctr mod W}, reused only under
 * <b>Condition 1</b>: "An id x.s can only be reused ... T_e time after server x has received
 * confirmation from all other servers that note x.(s + 1) has been removed from their respective K
 * lists" (L107). Following the prose before it (L105, "we cannot reuse id x.s until all servers
 * have removed x.s") and notes Z3, x.s must be confirmed gone as well, x included.
 *
 * <p>A confirmation counts only if it answers a sync request sent after the number's current
 * incarnation was issued (notes M2-d: a reply built earlier says nothing about the new note), and
 * only if the replier lists the id as removed, i.e. knows it delivered (not merely absent from its
 * K, which a replica still in flight would also explain).
 */
public final class S2Server extends StreamServer {

    private final int w;

    public S2Server(ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
        super(config, clock, Limits.wrapAround(w), durable);
        this.w = w;
    }

    @Override
    protected Optional<Long> nextSeq() {
        long s = ctr % w;
        long next = (s + 1) % w;
        if (!reusable(s) || !reusable(next)) {
            return Optional.empty();
        }
        return Optional.of(s);
    }

    /** Condition 1 for one number: never used, or its incarnation gone here and T_e past every confirmation. */
    private boolean reusable(long s) {
        if (!issued.containsKey(s)) {
            return true;
        }
        if (k.containsKey(NoteId.sequenced(config.self(), s))) {
            return false;
        }
        Map<ServerId, Long> confirmations = conf.getOrDefault(s, new TreeMap<>());
        long now = clock.now();
        for (ServerId other : config.others()) {
            Long at = confirmations.get(other);
            if (at == null || at + config.te() > now) {
                return false;
            }
        }
        return true;
    }

    /** The oldest note of the first stream in K: the number whose predecessor (mod W) is not in K. */
    @Override
    protected Optional<NoteId> nextToSend() {
        for (NoteId id : k.keySet()) {
            NoteId.Sequenced s = (NoteId.Sequenced) id;
            NoteId before = NoteId.sequenced(s.server(), (s.seq() + w - 1) % w);
            if (!k.containsKey(before)) {
                return Optional.of(id);
            }
        }
        return k.isEmpty() ? Optional.empty() : Optional.of(k.firstKey());
    }

    @Override
    protected boolean mayOffer(NoteId i) {
        NoteId.Sequenced s = (NoteId.Sequenced) i;
        return !k.containsKey(NoteId.sequenced(s.server(), (s.seq() + w - 1) % w));
    }

    /** A reused number's new incarnation replaces what this server knew of the old one. */
    @Override
    protected boolean acceptReplica(NoteId id) {
        removed.remove(id);
        return true;
    }

    @Override
    protected void confirm(EoMessage.SyncReply reply) {
        for (Map.Entry<Long, Long> e : issued.entrySet()) {
            NoteId id = NoteId.sequenced(config.self(), e.getKey());
            if (reply.round() > e.getValue() && reply.removed().contains(id) && !reply.k().contains(id)) {
                conf.computeIfAbsent(e.getKey(), s -> new TreeMap<>()).putIfAbsent(reply.from(), clock.now());
            }
        }
    }

    public int w() {
        return w;
    }
}
