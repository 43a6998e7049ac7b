package dev.onceproof.exactlyonce;

import java.util.Optional;

/**
 * Strategy 1, Sequenced Streams (3.1, App. A.2): notes of this server's stream are numbered
 * 1, 2, 3, ... by a durable counter (a counter lost in a crash reuses numbers: mutant M1-f); a
 * session walks K from each stream's lowest number and aborts on the first failed Deliver, so the
 * client never sees a gap it would have to skip (L87).
 */
public final class S1Server extends StreamServer {

    /** Mutation seam, tests only: false merges a peer's prefix by overwriting (MutS1MsgMergeOverwrite). */
    private final boolean mergeByMax;

    public S1Server(ServerConfig config, EoClock clock, ServerDurableState durable) {
        this(config, clock, durable, true);
    }

    S1Server(ServerConfig config, EoClock clock, ServerDurableState durable, boolean mergeByMax) {
        super(config, clock, Limits.streams(), durable);
        this.mergeByMax = mergeByMax;
        // A state stored before the prefix (every removed id): keep the highest of each stream.
        java.util.List<NoteId> all = new java.util.ArrayList<>(removed);
        removed.clear();
        for (NoteId id : all) {
            remove(id);
        }
        constructed();
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

    // Bounded knowledge (issue 19 item 1; specs/exactlyonce/ExactlyOnceS1Msg.tla, pre[s][x]). An ack
    // of x.n certifies x.1 .. x.n processed: the client acks only in stream order (it never acks a
    // gap, Z2; App. A.2's in-order sending with {abort;} never shows it one), so what this server
    // knows delivered of stream x is a prefix, kept as its highest id alone in `removed`. The
    // sync messages carry those ids, one per stream, whatever the run's length, and every such id
    // stands for its prefix. Ids are never reused in Strategy 1, so a stale message's prefix was
    // true when built and stays true: the merge takes the larger prefix (rule "merge") and needs
    // no watermark.

    /** The spec's {@code i \in Expand(pre[s])}: i's number is at or below its stream's prefix. */
    @Override
    protected boolean knownRemoved(NoteId id) {
        NoteId.Sequenced i = (NoteId.Sequenced) id;
        return i.seq() <= prefix(i.server());
    }

    /**
     * Rules "advance" and "merge": {@code pre[x] := max(pre[x], n)} and K loses every id of x at or
     * below the new prefix.
     */
    @Override
    protected void remove(NoteId id) {
        NoteId.Sequenced i = (NoteId.Sequenced) id;
        long pre = prefix(i.server());
        if (i.seq() <= pre) {
            forget(id); // already covered; an ack of a note the prefix passed changes nothing else
            return;
        }
        dropRemoved(NoteId.sequenced(i.server(), pre));
        addRemoved(i);
        for (NoteId covered : new java.util.ArrayList<>(k.subMap(NoteId.sequenced(i.server(), 0), true, i, true)
                .keySet())) {
            forget(covered);
        }
    }

    /**
     * A peer's prefixes, one id per stream, whatever its watermark (see above). The seam's broken
     * merge takes them as they come: every prefix becomes the message's, 0 for a stream it omits.
     */
    @Override
    protected void merge(java.util.Set<NoteId> theirRemoved, long theirSeen) {
        if (!mergeByMax) {
            for (NoteId id : new java.util.ArrayList<>(removed)) {
                dropRemoved(id);
            }
        }
        for (NoteId id : theirRemoved) {
            remove(id);
        }
    }

    /** {@code pre[s][x]}: the highest number of stream x known delivered, 0 if none. */
    long prefix(ServerId x) {
        NoteId top = removed.floor(NoteId.sequenced(x, Long.MAX_VALUE));
        return top instanceof NoteId.Sequenced t && t.server().equals(x) ? t.seq() : 0;
    }
}
