package dev.onceproof.exactlyonce;

import java.util.ArrayDeque;
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
 *
 * <p><b>Replicas are asynchronous</b> (notes Z1; specs/exactlyonce/ExactlyOnceS2MsgAsync.tla): a
 * replica reaches a peer whenever the network brings it, within T_e, and {@link #acceptReplica}
 * takes it as new (it cannot tell an old incarnation from a reuse by the wire id). So a peer can
 * learn x.s delivered, and confirm it gone, before x.s's replica reaches it; the late replica then
 * puts x.s back in its K, and x would reuse the number on a confirmation that is no longer true
 * (TLC: the old note processed twice). The fix: a number <em>settles</em> T_e after it was issued,
 * when no copy of its replicas is left, and a sync request started before it settled does not
 * count for its confirmation ({@code issued} moves to the request's round). A reply that confirms
 * x.s gone then answers a request sent when the replier had stored x.s (and the removal it lists
 * is of this incarnation: storing dropped any older one) or never will. The wait is kept in
 * volatile memory: after a restart every number not yet confirmed waits T_e again.
 *
 * <p><b>Removals name their incarnation</b> (the lost replica; ExactlyOnceS2MsgAsync's rule "tag",
 * Tagged = TRUE). A lost replica leaves this server's entry numbers behind its peers', so the seen
 * watermark no longer names the same notes here and there, and a sync built before a reuse would
 * take the new incarnation from here unprocessed. So every note carries its issue number (the
 * origin's counter when it numbered it; {@link EoMessage.Replica#issue}), a removal keeps the issue
 * number of the incarnation known delivered ({@code issues}, durable, sent as a sync message's
 * {@code tags}), and a removal does not apply to a held incarnation issued after the one it names.
 * TLC: ForgetOnlyProcessed holds with the rule (exactlyonce-s2msg-async-tagged, -deep) and fails
 * without it (exactlyonce-s2msg-async-settle-forgets, exactlyonce-mutant-s2msg-async-tag-ignored).
 */
public final class S2Server extends StreamServer {

    private final int w;
    /** Mutation seam (tests): false drops Condition 1's T_e wait (MutS2TimedShortWait's extreme). */
    private final boolean teWait;
    /**
     * Mutation seam (tests): false confirms a number from any request started after its issue, before
     * its replicas settled (the cores before the fix; ExactlyOnceS2MsgAsync with Settle = FALSE).
     */
    private final boolean settleWait;
    /**
     * The driver hands every replica to its server within the createNote step (trace replay of the
     * specs' atomic CreateNote, the test worlds of Strategies 0-2): a number is settled when issued.
     */
    private final boolean replicasAtOnce;
    /**
     * Mutation seam (tests): false confirms a number from a reply to any round, also one started
     * before its current incarnation was issued (ExactlyOnceS2Msg's MutS2MsgConfirmAnyRound, notes M2-d).
     */
    private boolean confirmRound = true;
    /**
     * Mutation seam (tests): false keeps a removal of a wire id when a replica of a new incarnation
     * of it arrives (acceptReplica's half of rule "reuse", MutS2MsgKeepRemovedOnReuse).
     */
    private boolean dropRemovedOnReuse = true;
    /**
     * Mutation seam (tests): true checks Condition 1 only at a literal reuse (once the stream has
     * wrapped, ctr >= W), not from the first generation whose successor was used before
     * (MutS2ConditionOnReuseOnly: the first wrap left open).
     */
    private boolean conditionAtReuseOnly;
    /**
     * Volatile: the numbers issued less than T_e ago, {seq, clock time it settles}, in issue order
     * (so the settled ones leave from the front). At most the notes created within T_e.
     */
    private final ArrayDeque<long[]> unsettled = new ArrayDeque<>();
    /** Mutation seam (tests): false lets a removal take a held incarnation issued after the one it names. */
    private boolean removalsNameTheirIncarnation = true;

    public S2Server(ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
        this(config, clock, w, durable, true);
    }

    /** Mutation seam (tests): {@code watermark = false} lets a stale removal take a new incarnation. */
    S2Server(ServerConfig config, EoClock clock, int w, ServerDurableState durable, boolean watermark) {
        this(config, clock, w, durable, watermark, true, true, false);
    }

    S2Server(ServerConfig config, EoClock clock, int w, ServerDurableState durable, boolean watermark,
            boolean teWait) {
        this(config, clock, w, durable, watermark, teWait, true, false);
    }

    S2Server(ServerConfig config, EoClock clock, int w, ServerDurableState durable, boolean watermark,
            boolean teWait, boolean settleWait, boolean replicasAtOnce) {
        super(config, clock, Limits.wrapAround(w), durable, watermark);
        this.w = w;
        this.teWait = teWait;
        this.settleWait = settleWait;
        this.replicasAtOnce = replicasAtOnce;
        // A restart forgets when each number was issued: every number not yet confirmed by anyone
        // waits T_e again (a confirmation is recorded only once its number settled, so a confirmed
        // number had settled before the crash).
        for (Long seq : issued.keySet()) {
            if (conf.getOrDefault(seq, new TreeMap<>()).isEmpty()) {
                numberIssued(seq);
            }
        }
    }

    /**
     * Mutation seam, tests only: the restart's settle wait dropped, so a restarted server counts
     * every number settled at once (ExactlyOnceS2MsgAsync's MutS2MsgAsyncRestartSettles: a reply
     * to a request started while a replica of a reopened number may still arrive then confirms
     * it). Called on a core just built from its store; returns this.
     */
    S2Server withoutRestartWait() {
        unsettled.clear();
        return this;
    }

    /** Mutation seam, tests only: see {@link #confirmRound}. Returns this. */
    S2Server confirmingAnyRound() {
        confirmRound = false;
        return this;
    }

    /** Mutation seam, tests only: see {@link #conditionAtReuseOnly}. Returns this. */
    S2Server checkingConditionAtReuseOnly() {
        conditionAtReuseOnly = true;
        return this;
    }

    /** Mutation seam, tests only: see {@link #dropRemovedOnReuse}. Returns this. */
    S2Server keepingRemovedOnReuse() {
        dropRemovedOnReuse = false;
        return this;
    }

    /**
     * Mutation seam, tests only: the cores before the rule "tag" (a stale removal takes a newer
     * incarnation held here, as when a lost replica put this server's numbers behind). Returns this.
     */
    S2Server staleRemovalTakesNewerIncarnation() {
        removalsNameTheirIncarnation = false;
        return this;
    }

    /**
     * Their removals (the watermark's rule, {@link StreamServer#mergeRemoval}) with rule "tag": a
     * removal does not apply to a held incarnation issued after the one it names, and an applied one
     * keeps the later of our tag and theirs. A removal without a tag (a state saved before tags)
     * goes by the watermark alone.
     */
    @Override
    protected void merge(java.util.Set<NoteId> theirRemoved, long theirSeen, java.util.SortedMap<NoteId, Long> theirTags) {
        for (NoteId id : theirRemoved) {
            Long tag = theirTags.get(id);
            Long held = k.containsKey(id) ? issues.get(id) : null;
            if (removalsNameTheirIncarnation && tag != null && held != null && held > tag) {
                continue;
            }
            mergeRemoval(id, theirSeen);
            if (tag != null && knownRemoved(id)) {
                setIssue(id, Math.max(issues.getOrDefault(id, tag), tag));
            }
        }
    }

    /**
     * Whether Condition 1 lets this server number its next note now (ExactlyOnceS2Timed's
     * {@code MayUseTimed(x)}); changes nothing. Replay compares it with the spec's after every step.
     */
    public boolean mayCreate() {
        return nextSeq().isPresent();
    }

    /**
     * The next number is {@code ctr mod W}; once the stream has wrapped (its successor was used
     * before), Condition 1 must hold for the successor. Checking the successor at every generation
     * covers the number itself too: it was the successor one generation earlier (the spec's
     * {@code MayUse}; eo-spec found that checking only at reuse leaves the first wrap open).
     */
    @Override
    protected Optional<Long> nextSeq() {
        long s = ctr % w;
        long next = (s + 1) % w;
        if ((conditionAtReuseOnly ? ctr >= w : ctr + 1 >= w) && !reusable(next)) {
            return Optional.empty();
        }
        return Optional.of(s);
    }

    /** Condition 1 for one number: gone here, every other server confirmed it gone, T_e ago. */
    private boolean reusable(long s) {
        if (k.containsKey(NoteId.sequenced(config.self(), s))) {
            return false;
        }
        Map<ServerId, Long> confirmations = conf.getOrDefault(s, new TreeMap<>());
        long now = clock.now();
        for (ServerId other : config.others()) {
            Long at = confirmations.get(other);
            if (at == null || teWait && at + config.te() > now) {
                return false;
            }
        }
        return true;
    }

    /**
     * The oldest incarnation of the first stream in K (the spec's FirstOfStream, by entry order: the
     * wire id alone cannot tell x.0 of the second round from x.0 of the first, notes Z19).
     */
    @Override
    protected Optional<NoteId> nextToSend() {
        return firstOfSomeStream();
    }

    @Override
    protected boolean mayOffer(NoteId i) {
        return firstOfStream(i);
    }

    @Override
    protected void numberIssued(long seq) {
        if (!replicasAtOnce) {
            unsettled.addLast(new long[] {seq, clock.now() + config.te()});
        }
    }

    /**
     * Whether number {@code seq} of this stream has settled by this server's clock (T_e since its
     * issue, or since a restart for one not yet confirmed); changes nothing. A test world reads it
     * to log the spec's {@code SettleNumber} step before the sync that would see it, and trace replay
     * compares it with the spec's {@code settled} after every step.
     */
    public boolean settled(long seq) {
        long now = clock.now();
        return unsettled.stream().noneMatch(u -> u[0] == seq && u[1] > now);
    }

    /**
     * The sync request about to be sent confirms none of the numbers not yet settled: each moves
     * to this round (the spec's StartSyncAsync), so only a reply to a later request confirms it.
     * Its confirmations are empty already (none is recorded before it settles).
     */
    @Override
    protected void syncStarted() {
        long now = clock.now();
        while (!unsettled.isEmpty() && unsettled.peekFirst()[1] <= now) {
            unsettled.removeFirst();
        }
        if (!settleWait) {
            return;
        }
        for (long[] u : unsettled) {
            issued.put(u[0], round);
            conf.remove(u[0]);
            journal(new ServerOp.Issue(u[0], round));
        }
    }

    /**
     * A reused number's new incarnation replaces what this server knew of the old one. A late
     * replica of an incarnation already delivered is taken too (nothing on the wire tells them
     * apart); its number's origin does not count a confirmation from here until the replica could
     * no longer be on the way (see the class doc), so the note leaves again before any reuse.
     */
    @Override
    protected boolean acceptReplica(NoteId id) {
        if (dropRemovedOnReuse) {
            dropRemoved(id);
        }
        return true;
    }

    /**
     * A sync reply confirms number s' of our stream gone from the replier's K (the spec's
     * {@code Gone}): for a number never used, its absence; for a used one, the replier lists its
     * current incarnation as removed (it knows it delivered: mere absence could be a replica still
     * in flight) in a reply to a request sent after that incarnation was numbered (mutant M2-d).
     */
    @Override
    protected void confirm(EoMessage.SyncReply reply) {
        for (long seq = 0; seq < w; seq++) {
            NoteId id = NoteId.sequenced(config.self(), seq);
            Long issuedAt = issued.get(seq);
            boolean gone = !reply.k().contains(id) && (issuedAt == null
                    || (reply.round() > issuedAt || !confirmRound) && reply.removed().contains(id));
            long now = clock.now();
            if (gone && conf.computeIfAbsent(seq, x -> new TreeMap<>()).putIfAbsent(reply.from(), now) == null) {
                journal(new ServerOp.Confirm(seq, reply.from(), now));
            }
        }
    }

    /** {@code conf[x][y]}: the numbers of this stream server y has confirmed gone. */
    public java.util.SortedSet<Long> confirmedBy(ServerId y) {
        java.util.TreeSet<Long> out = new java.util.TreeSet<>();
        conf.forEach((seq, byServer) -> {
            if (byServer.containsKey(y)) {
                out.add(seq);
            }
        });
        return out;
    }

    public int w() {
        return w;
    }

    @Override
    public Strategy strategy() {
        return Strategy.S2;
    }

    /** Condition 1 reads the round each number was issued in ({@code issued}) and its confirmations. */
    @Override
    protected boolean recordsIssueRounds() {
        return true;
    }
}
