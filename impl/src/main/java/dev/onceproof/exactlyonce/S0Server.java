package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Strategy 0's server (notes Z16: Strategy 1's server over globally unique ids; what matters is
 * the client, which processes everything). Notes are created with the caller's id, as in
 * Strategy 3; the session offers any note of K.
 *
 * <p><b>Bounded knowledge</b> (issue 19 item 1; specs/exactlyonce/ExactlyOnceS0Msg.tla). The ids
 * are the caller's, so no per-stream prefix summarises {@code removed}; instead a removed id is
 * forgotten (rule {@code Forget(s, i)}) once every other server's sync named it removed
 * ({@code Confirmed(s, i)}, kept in {@code removedConf}) and T_e has passed since the last of
 * those confirmations: the spec's {@code NoReplicaLeft(i)}. The copies that matter are i's
 * replicas, which its creator sent before anyone could ack i, so before any confirmation; a
 * message lives at most T_e (3.2), so none is left when the wait is over. The runtime forgets in
 * {@link #sync()}, before each sync round; replay calls {@link #forgetRemoved(NoteId)} at the trace's
 * Forget.
 */
public final class S0Server extends StreamServer {

    /** Mutation seam (tests): false drops {@code Confirmed(s, i)} from the forget rule (MutS0MsgForgetUnconfirmed). */
    private final boolean confirmedGuard;
    /** Mutation seam (tests): false drops the T_e wait from the forget rule (MutS0MsgForgetEarly). */
    private final boolean teGuard;

    public S0Server(ServerConfig config, EoClock clock, ServerDurableState durable) {
        this(config, clock, durable, true, true);
    }

    S0Server(ServerConfig config, EoClock clock, ServerDurableState durable, boolean confirmedGuard, boolean teGuard) {
        super(config, clock, Limits.global(), durable);
        this.confirmedGuard = confirmedGuard;
        this.teGuard = teGuard;
    }

    public static S0Server fresh(ServerConfig config, EoClock clock) {
        return new S0Server(config, clock, ServerDurableState.initial());
    }

    /** Strategy 0 does not number notes: {@link #createNote(NoteId, String)} names them. */
    @Override
    protected Optional<Long> nextSeq() {
        return Optional.empty();
    }

    @Override
    public Strategy strategy() {
        return Strategy.S0;
    }

    /** Strategy 0's notes are named by the caller. */
    @Override
    public ServerStep createNote(Optional<NoteId> id, String body) {
        return createNote(EoServer.named(strategy(), id), body);
    }

    /** The spec's {@code CreateNote(i)}: i into K here and, by replicas, everywhere. */
    public ServerStep createNote(NoteId id, String body) {
        limits.check("id", id);
        if (k.containsKey(id) || knownRemoved(id)) {
            throw new IllegalArgumentException("note " + id + " already exists on " + config.self());
        }
        Note note = new Note(id, config.client(), body);
        enter(note);
        return ServerCore.created("created", config, note, record());
    }

    @Override
    protected boolean mayOffer(NoteId i) {
        return true;
    }

    @Override
    protected Optional<NoteId> nextToSend() {
        return k.isEmpty() ? Optional.empty() : Optional.of(k.firstKey());
    }

    /**
     * Strategy 0's ids are never reused, so a removal in any sync message, however late, is true
     * of the one note with that id: merged without a watermark (the spec's {@code Merge}; the
     * watermark is for Strategy 2's reuse, and with replicas in flight entry numbers differ
     * between servers, so it would hold back true removals).
     */
    @Override
    protected void merge(Set<NoteId> theirRemoved, long theirSeen) {
        for (NoteId id : theirRemoved) {
            remove(id);
        }
    }

    /** The spec's {@code Confirm(m)}: {@code from} named these ids removed; the first time counts. */
    @Override
    protected void confirmRemovals(ServerId from, Set<NoteId> theirRemoved) {
        long now = clock.now();
        for (NoteId id : theirRemoved) {
            if (removed.contains(id) && removedConf.computeIfAbsent(id, x -> new TreeMap<>()).putIfAbsent(from, now) == null) {
                journal(new ServerOp.ConfirmRemoved(id, from, now));
            }
        }
    }

    /**
     * The guard of the spec's {@code Forget(s, i)}: i is removed here, every other server confirmed
     * it ({@code Confirmed(s, i)}), and T_e has passed since the last confirmation
     * ({@code NoReplicaLeft(i)}, see the class doc). Changes nothing.
     */
    public boolean mayForget(NoteId i) {
        if (!removed.contains(i)) {
            return false;
        }
        Map<ServerId, Long> byPeer = removedConf.getOrDefault(i, new TreeMap<>());
        long last = Long.MIN_VALUE;
        for (ServerId t : config.others()) {
            Long at = byPeer.get(t);
            if (at == null && confirmedGuard) {
                return false;
            }
            last = at == null ? last : Math.max(last, at);
        }
        return !teGuard || last == Long.MIN_VALUE || last + config.te() <= clock.now();
    }

    /** The spec's {@code Forget(s, i)}: i leaves {@code removed}, with its confirmations. */
    public ServerStep forgetRemoved(NoteId i) {
        if (!mayForget(i)) {
            return ServerStep.of("refused");
        }
        dropRemoved(i);
        return new ServerStep("forgot", List.of(record()));
    }

    /** The runtime's sync round: first every forget the rule allows, then {@code startSync}, one record. */
    @Override
    public ServerStep sync() {
        forgetAllowed();
        return startSync();
    }

    /**
     * The runtime's delivery of a message; before a sync request is handled, every forget the rule
     * allows (so the step is {@code Forget}* then {@code HandleSync}, an interleaving the spec has).
     * Why: the merge puts back what a peer still names, so a server that forgot an id before
     * its peer did learns it again from the peer's reply, and the two could hand the id back and
     * forth for ever, each forgetting in its own round while the other still names it. Forgetting
     * on both sides of one exchange ends that once both waits are over (S0ForgetTest).
     */
    @Override
    public ServerStep receive(EoMessage m) {
        if (m instanceof EoMessage.SyncRequest q) {
            forgetAllowed();
            return handleSync(q);
        }
        return super.receive(m);
    }

    private void forgetAllowed() {
        for (NoteId i : new ArrayList<>(removed)) {
            if (mayForget(i)) {
                dropRemoved(i);
            }
        }
    }

    /** {@code conf[s][t]}: the removed ids server t confirmed to this one. */
    public java.util.SortedSet<NoteId> confirmedBy(ServerId t) {
        java.util.TreeSet<NoteId> out = new java.util.TreeSet<>();
        removedConf.forEach((i, byPeer) -> {
            if (byPeer.containsKey(t)) {
                out.add(i);
            }
        });
        return out;
    }
}
