package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The server of the server-centric Strategies 4-6 (3.3.2, L203-254; App. A.6-A.8) for one client:
 * the base they share. A session first GATHERs D from the stale servers (Strategy 4: every other
 * server; 5 and 6 decide which in {@link #staleFor}), then DELIVERs the notes of K - D one at a
 * time with the atomic delivery {@code aDeliver} (3.3.1, L185-193), recording each success in D.
 *
 * <p>Step names are the spec's actions (S456 vocabulary): {@code startSession}, {@code reqD},
 * {@code replyD}, {@code recvD}, {@code gatherFail}, {@code endGather}, {@code aDeliver} (the call)
 * with {@code aDeliverOk} / {@code aDeliverErr} (its outcome), {@code recvSync}, {@code crash}.
 *
 * <p>Safety rests on three rules, each enforced here:
 * <ol>
 *   <li><b>The aDeliver log is the commit point</b> ({@link GatherDurableState}): an attempt is
 *       logged before the call, its success logged with D in one write (Z9);</li>
 *   <li><b>NoReattempt</b> (L191): {@code aDeliver(i)} is refused when i is in D or has any
 *       attempt logged; a session may not start delivering while any attempt's outcome is unknown;
 *       and this server does not reveal its D ({@code replyD}, syncs) while an outcome is unknown,
 *       since a peer would take the absence of i as "not delivered";</li>
 *   <li><b>One live session per client</b> (Z12): a new session replaces the old one, and
 *       {@code aDeliver} names its session; a call from a session that is not the live one is
 *       refused (mutant M4-g, a lingering thread delivering from an old snapshot).</li>
 * </ol>
 * Notes are re-checked against K - D at every call (no snapshot U, notes 2.5 action 8's fix).
 *
 * <p>Purging (space only, as Strategy 3 without the client's authorization, L213;
 * {@link #recvPurgeSync}): a note of our D that every server has in D or has purged (as they
 * reported) is dropped; a note of our D a peer's K no longer holds was purged there, so we drop it
 * too. No T_e gate is needed before that purge: aDeliver is atomic (no copy of a note travels to
 * the client), and the replication round below makes a replica that arrives after its purge
 * harmless (stored, never committed, never offered; {@code GatherLateReplicaTest}).
 *
 * <p><b>The acknowledged replication round</b> (specs/exactlyonce/README.md, "Replication: the
 * acknowledged round, Strategies 4-6"; notes Z1), as {@link S3Server} has it: a replica travels,
 * so a note is delivered at a server only once every server has stored it. A server stores a
 * replica and acknowledges it with the number it gave the note ({@link EoMessage.ReplicaAck}); once
 * the origin holds every server's number it commits and sends them all to every server
 * ({@link EoMessage.ReplicaCommit}); a note is deliverable at a server only once committed there.
 * Without it, a note delivered at A before its replica reached B is unknown to B's merges (they
 * keep a peer's D only within our K), and a Strategy 6 session at B that trusts A's fresh sync
 * delivers it again ({@code GatherLateReplicaTest}). Lost round messages are resent with the next
 * sync this server sends.
 *
 * <p><b>Why syncs carry a watermark, which the spec's PurgeSync does not need.</b> The spec's
 * {@code PurgeSync(s, t)} is one atomic exchange of both servers' current K and D, and a note
 * enters every K at once, so every note either side holds existed when the other's K was read: a
 * note missing there was purged there. Here a sync is a message, and one built before a note
 * existed may arrive after the note was delivered and entered our D (or may have reached us
 * earlier and stay in what we know of its sender's K). Read by the K-difference rule, that stale K
 * says the sender purged the note; dropping it here (and then, by K-difference, at the others)
 * would let the sender, which holds it undelivered, gather Ds without it and deliver it again
 * ({@code GatherStaleSyncTest}: n1 processed twice on the core before this rule). So, as in
 * {@link S3Server}, each server numbers notes in the order they enter its K ({@code entered};
 * {@code seen} is the last number, durable), every sync carries the sender's {@code seen}, and a
 * note's absence from a reported K counts as a purge only if its number here is at most that
 * watermark: only for notes the snapshot could have known. Under atomic replication every server
 * numbers the same notes in the same order, so number n names the same note everywhere. In an
 * immediate exchange (as trace replay performs the spec's PurgeSync) the sender has seen every note
 * the receiver has, so the rule purges exactly what the spec's PurgeSync purges, and the atomic
 * PurgeSync remains a faithful abstraction (checked: every stored S4-S6 trace replays). Servers
 * number notes in the order their replicas arrive, so two servers can number two notes in
 * opposite orders: the rule reads the watermark against the SENDER's number for the note, which the
 * round delivers (unknown until the commit: then the report vouches for nothing), as
 * {@link S3Server}'s merge does.
 *
 * <p>Sans-IO and not thread-safe: one instance per (server, client), driven by one thread.
 */
public abstract class GatherServer implements EoServer {

    /** The session's phase (the spec's {@code sess[s].phase}). */
    public enum Phase {
        IDLE, GATHER, DELIVER
    }

    protected final GatherConfig config;
    protected final EoClock clock;
    private final Limits limits = Limits.global();
    private final boolean watermark;
    /** Mutation seam: false makes a note deliverable as soon as it is in K (no replication round). */
    private final boolean replicationRound;

    // Durable (GatherDurableState).
    /**
     * K, with D, the aDeliver log, the entry numbers (the order notes entered K, 1..seen), the
     * replication round's numbers (each server's number for the note as far as we know; complete,
     * the note may be delivered here, once they name every server and the note has no origin; a
     * note without them predates the round) and origins (while the round is not complete here),
     * and the index of what {@link #aDeliverNext} may offer: one entry per note ({@link GatherNotes}).
     * Invariants: D and the log's notes are in K.
     */
    private final GatherNotes k;
    private final TreeMap<ServerId, Long> ts;
    private long sessions;
    /** How many notes have ever entered K here (createNote, receiveReplica); never decreases. */
    private long seen;

    // Volatile: lost in a crash.
    private Phase phase = Phase.IDLE;
    /** The live session's id, 0 if none. */
    private long session;
    private final TreeSet<ServerId> stale = new TreeSet<>();
    private final TreeSet<ServerId> asked = new TreeSet<>();
    private final TreeSet<ServerId> replied = new TreeSet<>();
    /** The spec's {@code common}: K at the session's start, intersected with every reply's D. */
    private final TreeSet<NoteId> common = new TreeSet<>();
    /** The note of this session's aDeliver call in progress, or null. */
    private NoteId pending;
    /** Peer -> the D it last reported (reply or sync), for purging (hash sets: asked once per note of D). */
    private final TreeMap<ServerId, Set<NoteId>> known = new TreeMap<>();
    /** Peer -> the K it last reported (syncs only): a delivered note missing there was purged there. */
    private final TreeMap<ServerId, Set<NoteId>> knownK = new TreeMap<>();
    /** Peer -> the watermark of the K in {@link #knownK} (the notes that snapshot could have known). */
    private final TreeMap<ServerId, Long> knownSeen = new TreeMap<>();

    // An index over the durable fields, rebuilt on load, so no step rescans the log.
    /** How many logged attempts have no outcome yet ({@link #hasUnresolved}). */
    private int unresolvedCount;

    /** The changes made since the last {@link #record()}: the next record's operations. */
    private final List<GatherOp> ops = new ArrayList<>();
    /** Mutation seam (tests only): operations of this kind change the core but are not journaled. */
    private Class<? extends GatherOp> unjournaled;
    /**
     * Mutation seam (tests only): {@link #sync(ServerId)} answers while an aDeliver outcome is
     * unknown here, a sync to one peer whose D may omit a processed note (issue 20 item 2).
     */
    private boolean answersPeerSyncWhileUnresolved;

    protected GatherServer(GatherConfig config, EoClock clock, GatherDurableState durable) {
        this(config, clock, durable, true, true);
    }

    /**
     * Mutation seams for tests: {@code watermark = false} reads a note's absence from a peer's
     * reported K as "purged there" whatever the report's watermark (the core before issue 10's
     * fix), so a test can show that its check catches the stale-sync purge; {@code
     * replicationRound = false} delivers a note as soon as it is in K and reads watermarks against
     * our own numbers (the cores before the round, {@code GatherLateReplicaTest}).
     */
    GatherServer(GatherConfig config, EoClock clock, GatherDurableState durable, boolean watermark,
            boolean replicationRound) {
        this.watermark = watermark;
        this.replicationRound = replicationRound;
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(durable, "durable");
        limits.checkAll("stored k", durable.k().keySet());
        for (Note n : durable.k().values()) {
            config.servers().checkClient("stored note.client", n.client());
        }
        for (ServerId t : durable.ts().keySet()) {
            if (!config.servers().others().contains(t)) {
                throw new IllegalArgumentException("stored TS names " + t + ", not one of the other servers "
                        + config.servers().others());
            }
        }
        this.ts = new TreeMap<>(durable.ts());
        this.sessions = durable.sessions();
        this.seen = durable.seen();
        this.k = new GatherNotes(config.servers().servers().size());
        for (Note note : durable.k().values()) { // in id order: a state built without numbers is numbered so
            Long number = durable.entered().get(note.id());
            GatherNotes.Entry e = k.add(note, number != null ? number : ++seen);
            e.delivered = durable.d().contains(note.id());
            e.attempt = durable.log().get(note.id());
            SortedMap<ServerId, Long> nums = durable.numbers().get(note.id());
            e.numbers = nums == null ? null : new TreeMap<>(nums);
            e.origin = durable.origins().get(note.id());
            k.refresh(e);
            if (e.unresolved()) {
                unresolvedCount++;
            }
        }
    }

    /**
     * Mutation seam: changes of {@code kind} still change the core but no longer reach its records,
     * so a store misses them (the replay's store check must catch it). Tests only.
     */
    void withoutJournaling(Class<? extends GatherOp> kind) {
        this.unjournaled = Objects.requireNonNull(kind, "kind");
    }

    /**
     * Mutation seam: {@link #sync(ServerId)} no longer defers while an outcome is unknown (its D may
     * omit a note the client processed), so a test can show that replay's {@code DeferPurgeSync}
     * (and S5/S6's {@code DeferSync}) steps catch it. {@link #syncAll}, {@link #replyD} and
     * {@link #endGather} still defer. Tests only.
     */
    void answersPeerSyncWhileUnresolved() {
        this.answersPeerSyncWhileUnresolved = true;
    }

    /** Whether this strategy keeps TS (Strategies 5 and 6). */
    protected abstract boolean timed();

    // ---- the step interface (EoServer): routing to the spec-named steps below -------------------

    @Override
    public Strategy strategy() {
        return config.strategy();
    }

    /** Strategies 4-6 need the caller's globally unique id (L201). */
    @Override
    public ServerStep createNote(Optional<NoteId> id, String body) {
        return createNote(EoServer.named(strategy(), id), body);
    }

    /**
     * A replica, a request for D ({@code replyD}), a reply with D ({@code recvD}), a peer's sync
     * ({@link #recvPeerSync}: merged and purged), or the client's history upload (Strategy 6's
     * StartSession; 4 and 5 ignore the history).
     */
    @Override
    public ServerStep receive(EoMessage m) {
        if (m instanceof EoMessage.Replica r) {
            return receiveReplica(r);
        } else if (m instanceof EoMessage.ReplicaAck a) {
            return receiveReplicaAck(a);
        } else if (m instanceof EoMessage.ReplicaCommit c) {
            return receiveReplicaCommit(c);
        } else if (m instanceof EoMessage.DRequest q) {
            return replyD(q);
        } else if (m instanceof EoMessage.DReply r) {
            return recvD(r);
        } else if (m instanceof EoMessage.DSync y) {
            return recvPeerSync(y);
        } else if (m instanceof EoMessage.HistoryUpload h) {
            return startSession(h);
        }
        throw EoServer.noStep(strategy(), "receive(" + m.getClass().getSimpleName() + ")",
                "no Strategy 4-6 server receives it");
    }

    /** The next aDeliver call of the delivery phase ({@link #aDeliverNext}). */
    @Override
    public ServerStep deliverNext() {
        return aDeliverNext();
    }

    /** A stale server did not reply in time: {@link #gatherFail}. */
    @Override
    public ServerStep timeout() {
        return gatherFail();
    }

    /** Strategy 4: our K and D to every peer ({@link #syncAll}); 5 and 6 override with their syncs. */
    @Override
    public ServerStep sync() {
        return syncAll();
    }

    @Override
    public ServerStep authorize() {
        throw EoServer.noStep(strategy(), "authorize", "only Strategy 3 purges with the client's consent");
    }

    // ---- notes -------------------------------------------------------------------------------

    /**
     * The spec's {@code CreateNote}: the note at its origin, then a replica to every other server.
     * Deliverable here only once every server has stored it (the round's commit, {@link
     * #receiveReplicaAck}).
     */
    public ServerStep createNote(NoteId id, String body) {
        limits.check("id", id);
        if (k.contains(id)) {
            throw new IllegalArgumentException("note " + id + " already exists on " + config.self()
                    + "; Strategies 4-6 need globally unique ids (L201)");
        }
        Note note = new Note(id, config.client(), body);
        GatherNotes.Entry e = enter(note);
        if (replicationRound && !others().isEmpty()) {
            openRound(e, config.self());
        }
        k.refresh(e);
        return ServerCore.created("created", config.servers(), note, record());
    }

    /**
     * A replica from the note's origin enters K, numbered here, and (with the round) is acknowledged
     * with that number; it may be delivered here only once the origin's commit arrives. A replica of
     * a note we already hold is acknowledged again (the first ack may have been lost). A replica
     * that arrives after its note was purged here (beyond the lifetime T_e) is stored but never
     * committed, so never offered: its origin ignores acks for notes it no longer holds.
     */
    public ServerStep receiveReplica(EoMessage.Replica m) {
        config.servers().checkToSelf(m.to());
        config.servers().checkFromPeer("from", m.from());
        config.servers().checkClient("note.client", m.note().client());
        limits.check("note.id", m.note().id());
        NoteId id = m.note().id();
        GatherNotes.Entry held = k.get(id);
        if (held != null) {
            return replicationRound && m.from().equals(held.origin)
                    ? new ServerStep("acknowledged", List.of(ack(held))) : ServerStep.of("ignored");
        }
        GatherNotes.Entry e = enter(m.note());
        if (!replicationRound) {
            k.refresh(e);
            return new ServerStep("stored", List.of(record()));
        }
        openRound(e, m.from());
        return new ServerStep("stored", List.of(record(), ack(e)));
    }

    /** The round of a note just stored here (not yet offered) opens with our number only. */
    private void openRound(GatherNotes.Entry e, ServerId origin) {
        TreeMap<ServerId, Long> nums = new TreeMap<>();
        nums.put(config.self(), e.entered);
        e.numbers = nums;
        e.origin = origin;
        emit(new GatherOp.OpenRound(e.id(), origin, nums));
    }

    private ServerEffect ack(GatherNotes.Entry e) {
        return new ServerEffect.Send(new EoMessage.ReplicaAck(config.self(), e.origin, config.client(), e.id(),
                e.entered));
    }

    /**
     * At the note's origin: {@code from} stored the replica as its number. Once every server has,
     * the round is complete: the note may be delivered here, and every other server hears so with
     * every server's number ({@link EoMessage.ReplicaCommit}). An ack for a note whose round is
     * already complete is answered with the commit again (the peer lacks it); for a note no longer
     * in K (purged), ignored.
     */
    public ServerStep receiveReplicaAck(EoMessage.ReplicaAck m) {
        config.servers().checkToSelf(m.to());
        config.servers().checkFromPeer("from", m.from());
        config.servers().checkClient("client", m.client());
        limits.check("id", m.id());
        NoteId id = m.id();
        GatherNotes.Entry e = k.get(id);
        TreeMap<ServerId, Long> nums = e == null ? null : e.numbers;
        if (!replicationRound || nums == null) {
            return ServerStep.of("ignored");
        }
        if (!complete(e)) {
            if (!config.self().equals(e.origin)) {
                throw new InvalidMessageException("to", "ack for note " + id + ", whose origin is "
                        + e.origin + ", not " + config.self());
            }
            nums.put(m.from(), m.number());
            if (nums.size() < config.servers().servers().size()) {
                emit(new GatherOp.AckRound(id, m.from(), m.number()));
                return new ServerStep("acknowledged", List.of(record()));
            }
            e.origin = null;
            k.refresh(e);
            emit(new GatherOp.CommitRound(id, nums));
            List<ServerEffect> effects = new ArrayList<>();
            effects.add(record());
            for (ServerId t : others()) {
                effects.add(commitTo(t, e));
            }
            return new ServerStep("committed", effects);
        }
        return nums.size() == config.servers().servers().size() && m.number() == nums.get(m.from())
                ? new ServerStep("recommitted", List.of(commitTo(m.from(), e))) : ServerStep.of("ignored");
    }

    private ServerEffect commitTo(ServerId t, GatherNotes.Entry e) {
        return new ServerEffect.Send(new EoMessage.ReplicaCommit(config.self(), t, config.client(), e.id(),
                e.numbers));
    }

    /**
     * From the note's origin: every server stored it; it may be delivered here, and a purge sync's
     * watermark is read against each server's own number for it. For a note not in K (purged here)
     * or already complete, ignored. A commit that gives us a number other than ours is not about our
     * copy and is refused.
     */
    public ServerStep receiveReplicaCommit(EoMessage.ReplicaCommit m) {
        config.servers().checkToSelf(m.to());
        config.servers().checkFromPeer("from", m.from());
        config.servers().checkClient("client", m.client());
        limits.check("id", m.id());
        NoteId id = m.id();
        GatherNotes.Entry e = k.get(id);
        if (!replicationRound || e == null || complete(e)) {
            return ServerStep.of("ignored");
        }
        if (!m.numbers().keySet().equals(config.servers().servers())) {
            throw new InvalidMessageException("numbers", "names " + m.numbers().keySet() + ", not the servers "
                    + config.servers().servers());
        }
        if (m.numbers().get(config.self()) != e.entered) {
            throw new InvalidMessageException("numbers[" + config.self() + "]", m.numbers().get(config.self())
                    + " for note " + id + ", which is number " + e.entered + " here");
        }
        e.numbers = new TreeMap<>(m.numbers());
        e.origin = null;
        k.refresh(e);
        emit(new GatherOp.CommitRound(id, m.numbers()));
        return new ServerStep("committed", List.of(record()));
    }

    /** Whether e's replication round is complete here (or e predates the round). */
    private boolean complete(GatherNotes.Entry e) {
        return e.complete(config.servers().servers().size());
    }

    /**
     * The rounds not complete here, carried on with every sync this server sends (so a lost
     * replica, ack or commit delays a note, never loses it): at the origin, the replica again to
     * every server that has not acknowledged; elsewhere, the ack again (the origin answers a late one
     * with the commit).
     */
    /**
     * The rounds not complete here, resent on their own (a runtime's timer, for a strategy that
     * seldom syncs): "carried" with the resent replicas and acks, "idle" when every round here is
     * complete.
     */
    public ServerStep carryOnRound() {
        List<ServerEffect> out = resendRound(others());
        return out.isEmpty() ? ServerStep.of("idle") : new ServerStep("carried", out);
    }

    private List<ServerEffect> resendRound(Set<ServerId> to) {
        List<ServerEffect> out = new ArrayList<>();
        for (GatherNotes.Entry e : k.sorted(e -> e.origin != null)) {
            if (e.origin.equals(config.self())) {
                for (ServerId t : others()) {
                    if (to.contains(t) && !e.numbers.containsKey(t)) {
                        out.add(new ServerEffect.Send(new EoMessage.Replica(config.self(), t, e.note)));
                    }
                }
            } else if (to.contains(e.origin)) {
                out.add(ack(e));
            }
        }
        return out;
    }

    /** Note enters K; the caller opens its round, then refreshes it (so it is offered at once only without a round). */
    private GatherNotes.Entry enter(Note note) {
        GatherNotes.Entry e = k.add(note, ++seen);
        emit(new GatherOp.Enter(note, seen));
        return e;
    }

    // ---- the session: gather --------------------------------------------------------------------

    /**
     * The spec's {@code StartSession(s)}: the client asked for its notes. A new session replaces any
     * old one (Z12); its id is durable so it is never reused, even across crashes. The gather
     * starts with the stale set of {@link #staleFor}; the requests go out with {@link #reqD}.
     */
    public ServerStep startSession() {
        return begin(staleFor(Optional.empty()));
    }

    /**
     * Strategy 6's {@code StartSession(s)} with the client's {@code UploadH} folded in (App. A.8
     * {@code Receive(H)} is its first statement); Strategies 4 and 5 ignore the history. An end time later than our clock + 2ε cannot be
     * real and is refused, naming the entry.
     */
    public ServerStep startSession(EoMessage.HistoryUpload m) {
        Objects.requireNonNull(m, "upload");
        config.servers().checkToSelf(m.to());
        config.servers().checkClient("from", m.from());
        long latest = clock.now() + 2 * config.skew();
        m.history().ended().forEach((t, h) -> {
            if (h > latest) {
                throw new InvalidMessageException("history.ended[" + t + "]", h + " is later than this server's "
                        + "clock " + clock.now() + " + 2*skew " + config.skew());
            }
        });
        return begin(staleFor(Optional.of(m.history())));
    }

    protected final ServerStep begin(SortedSet<ServerId> staleSet) {
        sessions++;
        session = sessions;
        emit(new GatherOp.StartSession(sessions));
        phase = Phase.GATHER;
        pending = null;
        stale.clear();
        stale.addAll(staleSet);
        asked.clear();
        replied.clear();
        common.clear();
        common.addAll(k.ids());
        return new ServerStep("started", List.of(record()));
    }

    /**
     * The servers this session must pull D from before it may deliver. {@code history} is
     * Strategy 6's upload (empty elsewhere, and for a Strategy 6 session started without one).
     */
    protected abstract SortedSet<ServerId> staleFor(Optional<ClientHistory> history);

    /**
     * The spec's {@code ReqD(s, t)}: "Request for list D" to a stale server t not yet asked in this
     * session (a lost request is not resent: the gather fails and the client's next request starts
     * a new session, App. A.6 {@code {abort;}}).
     */
    public ServerStep reqD(ServerId t) {
        if (phase != Phase.GATHER || !stale.contains(t) || asked.contains(t)) {
            return ServerStep.of("refused");
        }
        asked.add(t);
        return new ServerStep("requested", List.of(new ServerEffect.Send(
                new EoMessage.DRequest(config.self(), t, config.client(), session))));
    }

    /** Every {@link #reqD} the gather still needs, in one step (what a runtime sends). */
    public ServerStep reqAll() {
        if (phase != Phase.GATHER) {
            return ServerStep.of("refused");
        }
        List<ServerEffect> out = new ArrayList<>();
        for (ServerId t : stale) {
            if (!asked.contains(t)) {
                asked.add(t);
                out.add(new ServerEffect.Send(new EoMessage.DRequest(config.self(), t, config.client(), session)));
            }
        }
        return new ServerStep("requested", out);
    }

    /**
     * The spec's {@code ReplyD(t, s)} at this server t: our D and our clock now, the send time. Not
     * while an aDeliver outcome is unknown here ("deferred", nothing sent): the D would omit a note
     * that may have been delivered, and the gatherer would deliver it again.
     */
    public ServerStep replyD(EoMessage.DRequest m) {
        config.servers().checkToSelf(m.to());
        config.servers().checkFromPeer("from", m.from());
        config.servers().checkClient("client", m.client());
        if (hasUnresolved() && !config.plainDeliver()) {
            return ServerStep.of("deferred");
        }
        return new ServerStep("replied", List.of(new ServerEffect.Send(new EoMessage.DReply(config.self(), m.from(),
                config.client(), m.session(), clock.now(), k.d()))));
    }

    /**
     * The spec's {@code RecvD(s, t)}: t's D, restricted to our K (App. A.6 {@code D[s] - (D[s] - K)}:
     * "s may not know that some messages are already purged"), joins ours; Strategies 5-6 also take
     * {@code TS[t] := max(TS[t], ts)} (Z11). A reply to another session, or from a server not
     * awaited, is ignored.
     */
    public ServerStep recvD(EoMessage.DReply m) {
        config.servers().checkToSelf(m.to());
        config.servers().checkFromPeer("from", m.from());
        config.servers().checkClient("client", m.client());
        limits.checkAll("d", m.d());
        checkNotFuture(m.ts());
        if (phase != Phase.GATHER || m.session() != session || !stale.contains(m.from())
                || replied.contains(m.from())) {
            return ServerStep.of("ignored");
        }
        for (NoteId i : m.d()) {
            addD(i);
        }
        common.retainAll(m.d());
        known.put(m.from(), new HashSet<>(m.d()));
        if (timed()) {
            mergeTs(m.from(), m.ts());
        }
        replied.add(m.from());
        return new ServerStep("merged", List.of(record()));
    }

    /** The spec's {@code GatherFail(s)}: a stale server could not be reached: abort the session. */
    public ServerStep gatherFail() {
        if (phase != Phase.GATHER) {
            return ServerStep.of("refused");
        }
        endLiveSession();
        return ServerStep.of("aborted");
    }

    /**
     * The spec's {@code EndGather(s)}: every stale server replied; delivery may start. Refused while
     * an aDeliver outcome is unknown (NoReattempt). Strategy 4 also purges what every server's
     * reply had in D (App. A.6: {@code P = D[1] ∩ ... ∩ D[N]}, with our own D, Z14).
     */
    public ServerStep endGather() {
        if (phase != Phase.GATHER || !replied.containsAll(stale)) {
            return ServerStep.of("refused");
        }
        if (hasUnresolved()) {
            return ServerStep.of("unresolved");
        }
        if (purgesAtGather() && stale.equals(others())) {
            for (GatherNotes.Entry e : k.sorted(e -> e.delivered && common.contains(e.id()))) {
                drop(e);
            }
        }
        phase = Phase.DELIVER;
        return new ServerStep("delivering", List.of(record()));
    }

    /** Strategy 4's HandleClient purges at the end of its gather; 5 and 6's do not (notes 2.8 (j)). */
    protected boolean purgesAtGather() {
        return false;
    }

    // ---- the session: deliver -------------------------------------------------------------------

    /**
     * The call {@code aDeliver(c, i)} (3.3.1) for session {@code sessionId}: allowed only for the
     * live session in its delivery phase, with no call in progress, for i in K - D with nothing
     * logged for it. The attempt is logged first (the Record), then the runtime calls aDeliver (the
     * {@link ServerEffect.ADeliver}) and reports the outcome with {@link #aDeliverOk} or
     * {@link #aDeliverErr}. Otherwise "refused", no change.
     */
    public ServerStep aDeliver(long sessionId, NoteId i) {
        Objects.requireNonNull(i, "note");
        GatherNotes.Entry e = k.get(i);
        if (sessionId != session || session == 0 || phase != Phase.DELIVER || pending != null
                || e == null || e.delivered || e.attempt != null || !complete(e)) {
            return ServerStep.of("refused");
        }
        e.attempt = new GatherDurableState.Attempt(session, false);
        k.refresh(e);
        unresolvedCount++;
        emit(new GatherOp.LogAttempt(i, session));
        pending = i;
        return new ServerStep("calling", List.of(record(), new ServerEffect.ADeliver(session, e.note)));
    }

    /**
     * The note {@link #aDeliverNext} would offer now (K - D, nothing logged, round complete), if
     * any: ConcurrentGatherServer's after-call seam picks its note as the core does, so that the
     * seam differs from the real wrapper only in when the attempt is logged.
     */
    Optional<Note> nextOffer() {
        GatherNotes.Entry first = k.firstOfferable();
        return first == null ? Optional.empty() : Optional.of(first.note);
    }

    /** {@link #aDeliver} for the live session and the first note of K - D, or "idle"/"refused". */
    public ServerStep aDeliverNext() {
        if (phase != Phase.DELIVER || pending != null) {
            return ServerStep.of("refused");
        }
        // K - D - logged with the round complete, kept as an index: no rescan of K.
        GatherNotes.Entry first = k.firstOfferable();
        return first == null ? ServerStep.of("idle") : aDeliver(session, first.id());
    }

    /**
     * The spec's {@code ADeliverOK(s, i)}: the call of session {@code sessionId} for i returned
     * success (or the primitive's log says so after a crash). Logged with i added to D in one
     * write: the commit point. The session need not be live: an outcome is a fact to record.
     *
     * @throws IllegalArgumentException no attempt of that session for i is awaiting its outcome
     *     (nothing changes)
     */
    @Override
    public ServerStep aDeliverOk(long sessionId, NoteId i) {
        GatherNotes.Entry e = checkAwaiting(sessionId, i);
        e.attempt = new GatherDurableState.Attempt(sessionId, true);
        e.delivered = true;
        k.refresh(e);
        unresolvedCount--;
        emit(new GatherOp.ADeliverOk(i, sessionId));
        if (i.equals(pending) && sessionId == session) {
            pending = null;
        }
        return new ServerStep("delivered", List.of(record()));
    }

    /**
     * The spec's {@code ADeliverErr(s, i)}: the call failed, so the client did not process i
     * (L191); the attempt leaves the log (i may be tried again later) and, when it was the live
     * session's call, the session aborts (App. A.6 {@code {abort;}}).
     */
    @Override
    public ServerStep aDeliverErr(long sessionId, NoteId i) {
        GatherNotes.Entry e = checkAwaiting(sessionId, i);
        e.attempt = null;
        unresolvedCount--;
        k.refresh(e);
        emit(new GatherOp.ADeliverErr(i));
        if (i.equals(pending) && sessionId == session) {
            endLiveSession();
        }
        return new ServerStep("failed", List.of(record()));
    }

    private GatherNotes.Entry checkAwaiting(long sessionId, NoteId i) {
        Objects.requireNonNull(i, "note");
        GatherNotes.Entry e = k.get(i);
        GatherDurableState.Attempt a = e == null ? null : e.attempt;
        if (a == null || a.ok() || a.session() != sessionId) {
            throw new IllegalArgumentException("aDeliver outcome for note " + i + " of session " + sessionId
                    + ": no such call awaits its outcome on " + config.self() + " (log entry: " + a + ")");
        }
        return e;
    }

    /** The session ends without a failure (the client disconnected; the runtime noticed). */
    public ServerStep endSession() {
        if (phase == Phase.IDLE) {
            return ServerStep.of("ignored");
        }
        endLiveSession();
        return ServerStep.of("ended");
    }

    protected void endLiveSession() {
        phase = Phase.IDLE;
        session = 0;
        pending = null;
        stale.clear();
        asked.clear();
        replied.clear();
        common.clear();
    }

    /**
     * The spec's {@code ServerCrash(s)}: the session and what peers reported are lost; K, D, TS, the
     * session counter and the aDeliver log are not. An attempt in progress stays in the log,
     * unresolved, until its outcome is reported ({@link #unresolved()}).
     */
    public void crash() {
        endLiveSession();
        known.clear();
        knownK.clear();
        knownSeen.clear();
    }

    // ---- synchronization (purging; Strategy 5's periodic and 6's push syncs) ---------------------

    /**
     * A sync to peer t: our K and D and our clock now (the send time). Deferred, nothing sent, while
     * an aDeliver outcome is unknown here (see {@link #replyD}).
     */
    public ServerStep sync(ServerId t) {
        if (t.equals(config.self()) || !config.servers().servers().contains(t)) {
            throw new IllegalArgumentException(t + " is not one of the other servers " + config.servers().others());
        }
        if (hasUnresolved() && !config.plainDeliver() && !answersPeerSyncWhileUnresolved) {
            return ServerStep.of("deferred");
        }
        List<ServerEffect> out = new ArrayList<>();
        out.add(new ServerEffect.Send(syncTo(t)));
        out.addAll(resendRound(Set.of(t)));
        return new ServerStep("synced", out);
    }

    /** A sync to every other server, as {@link #sync} (S5's periodicSync and S6's pushSync add their bookkeeping). */
    public ServerStep syncAll() {
        return syncAll("synced");
    }

    /** A sync to every other server (Strategy 5's PeriodicSync, Strategy 6's PushSync). */
    protected ServerStep syncAll(String outcome) {
        if (hasUnresolved() && !config.plainDeliver()) {
            return ServerStep.of("deferred");
        }
        List<ServerEffect> out = new ArrayList<>();
        for (ServerId t : config.servers().others()) {
            out.add(new ServerEffect.Send(syncTo(t)));
        }
        out.addAll(resendRound(others()));
        return new ServerStep(outcome, out);
    }

    private EoMessage.DSync syncTo(ServerId t) {
        return new EoMessage.DSync(config.self(), t, config.client(), clock.now(), k.ids(), k.d(), seen);
    }

    /**
     * The spec's {@code RecvSync(t, s)} at this server t (Strategy 5's periodic, 6's push syncs):
     * {@code D[t] ∪= Ds ∩ K[t]}; Strategies 5-6 also {@code TS[t][s] := max(TS[t][s], ts)} (Z11). No
     * purging here: that is {@link #recvPurgeSync}.
     */
    public ServerStep recvSync(EoMessage.DSync m) {
        checkSync(m);
        for (NoteId i : m.d()) {
            addD(i);
        }
        if (timed()) {
            mergeTs(m.from(), m.ts());
        }
        learn(m);
        return new ServerStep("merged", List.of(record()));
    }

    /**
     * The receiving half of the spec's {@code PurgeSync(s, t)} (L213, "Exactly as in Strategy 3",
     * without the client), at this server: a note we have in D that the sender no longer holds in K
     * was purged there, so it leaves our K (App. A.4's K-difference; an undelivered note missing there
     * is kept, its replica may be late, notes Z1); the sender's D joins ours; then every note of our
     * D that every server had in D or had purged (we before this merge, the sender by its message,
     * the others by what they last reported) is purged here. "Purged there" is read from a reported
     * K only for notes the sender numbered at most its watermark {@code seen} (see the class doc): a
     * K reported before the sender stored a note says nothing of it. Run on both sides with the messages
     * each sent before either merged, this is the spec's atomic exchange. No TS change.
     */
    public ServerStep recvPurgeSync(EoMessage.DSync m) {
        checkSync(m);
        // Our D before this merge, in id order (the order the purges are recorded in). K does not
        // grow here, so a note of D after the merge that was not in ours came with the sender's D.
        List<GatherNotes.Entry> ownD = k.sorted(e -> e.delivered);
        Set<NoteId> ownDIds = new HashSet<>();
        for (GatherNotes.Entry e : ownD) {
            ownDIds.add(e.id());
            if (purgedPerReport(e, m.from(), m.k(), m.seen()) && !e.unresolved()) {
                drop(e);
            }
        }
        for (NoteId i : m.d()) {
            addD(i);
        }
        learn(m);
        for (GatherNotes.Entry e : k.sorted(e -> e.delivered)) {
            if (ownDIds.contains(e.id()) && knownToOthers(e) && !e.unresolved()) {
                drop(e);
            }
        }
        return new ServerStep("merged", List.of(record()));
    }

    /**
     * A peer's sync as a runtime handles it (the step interface's {@link #receive}): Strategies 5-6
     * take its send time into TS as {@link #recvSync} does, and every strategy handles it as the
     * receiving half of PurgeSync ({@link #recvPurgeSync}), whose merge of D and report are
     * {@code recvSync}'s. A peer's syncs are the only way its purges reach us: a server that
     * merged them without purging (as every runtime did before issue 19) kept every note the client
     * was ever given elsewhere (Strategy 4's unvisited server B: K = 65,600 after 65,599 notes).
     * specs/exactlyonce/MCExactlyOnceS4MsgLive.tla checks that this receipt empties every K of the
     * delivered notes under fair syncs, and that the merge alone does not
     * ({@code exactlyonce-control-s4msg-merge-only}). The purge reads no TS, so Strategies 5-6's
     * freshness is untouched.
     */
    public ServerStep recvPeerSync(EoMessage.DSync m) {
        checkSync(m);
        if (timed()) {
            mergeTs(m.from(), m.ts());
        }
        return recvPurgeSync(m);
    }

    /**
     * Records what peer {@code m.from()} reported (its K and D at the send time) without merging it:
     * knowledge for purging only. A D loses a note only in a purge, so "i was in t's D" stays "t has
     * i in D or purged it". The trace replayer uses this to give a server what the spec's PurgeSync
     * reads directly (every server's D); a runtime may use it for syncs it overhears.
     */
    public ServerStep learnSync(EoMessage.DSync m) {
        checkSync(m);
        learn(m);
        return ServerStep.of("learned");
    }

    private void checkSync(EoMessage.DSync m) {
        config.servers().checkToSelf(m.to());
        config.servers().checkFromPeer("from", m.from());
        config.servers().checkClient("client", m.client());
        limits.checkAll("k", m.k());
        limits.checkAll("d", m.d());
        checkNotFuture(m.ts());
    }

    private void learn(EoMessage.DSync m) {
        known.put(m.from(), new HashSet<>(m.d()));
        knownK.put(m.from(), new HashSet<>(m.k()));
        knownSeen.put(m.from(), m.seen());
    }

    /**
     * Whether peer {@code from}'s reported K, with watermark {@code theirSeen}, says it purged our
     * note i: i is missing from it and the report could have known i: {@code from}'s own number for
     * i is at most the watermark. That number comes from the replication round (unknown until the
     * commit arrives: then the report vouches for nothing); without the round, or for a note that
     * predates it, it is taken to be ours (atomic replication numbers every note alike, notes Z1).
     * Servers number notes in the order their replicas arrive, so our number says nothing of the
     * sender's: read against ours, a report built before the sender stored i could count as a
     * purge (as {@code exactlyonce-control-s3msg-round-alone} shows for Strategy 3).
     */
    private boolean purgedPerReport(GatherNotes.Entry e, ServerId from, Set<NoteId> theirK, long theirSeen) {
        if (theirK.contains(e.id())) {
            return false;
        }
        if (!watermark) {
            return true;
        }
        Long theirs = replicationRound && e.numbers != null ? e.numbers.get(from) : Long.valueOf(e.entered);
        return theirs != null && theirs <= theirSeen;
    }

    /** Every other server reported e in its D, or reported a K without e after reporting it in D. */
    private boolean knownToOthers(GatherNotes.Entry e) {
        for (ServerId t : config.servers().others()) {
            Set<NoteId> theirD = known.get(t);
            Set<NoteId> theirK = knownK.get(t);
            boolean inD = theirD != null && theirD.contains(e.id());
            boolean purged = theirK != null && purgedPerReport(e, t, theirK, knownSeen.get(t));
            if (!inD && !purged) {
                return false;
            }
        }
        return true;
    }

    /** i joins D if it is in K and not there yet (the merge rule {@code D ∪= Ds ∩ K}). */
    private void addD(NoteId i) {
        GatherNotes.Entry e = k.get(i);
        if (e != null && !e.delivered) {
            e.delivered = true;
            k.refresh(e);
            emit(new GatherOp.AddD(i));
        }
    }

    private void mergeTs(ServerId t, long sent) {
        Long old = ts.get(t);
        if (old == null || sent > old) {
            ts.put(t, sent);
            emit(new GatherOp.SetTs(t, sent));
        }
    }

    private void drop(GatherNotes.Entry e) {
        emit(new GatherOp.Purge(e.id()));
        if (e.unresolved()) {
            unresolvedCount--;
        }
        k.remove(e);
    }

    /**
     * A timestamp from a peer's clock cannot be later than ours by more than 2ε (both within ε of
     * true time, and a message takes time); a later one would make its sender look fresh for longer
     * than it is, so it is refused, naming the field.
     */
    private void checkNotFuture(long t) {
        if (timed() && t > clock.now() + 2 * config.skew()) {
            throw new InvalidMessageException("ts", t + " is later than this server's clock " + clock.now()
                    + " + 2*skew " + config.skew());
        }
    }

    private boolean hasUnresolved() {
        return unresolvedCount > 0;
    }

    /**
     * The step's durable changes, in the order made, as one record (the caller makes it durable
     * before the step's sends and aDeliver call leave); the list is then empty for the next step.
     */
    protected ServerEffect record() {
        ServerEffect.RecordGather r = new ServerEffect.RecordGather(List.copyOf(ops));
        ops.clear();
        return r;
    }

    private void emit(GatherOp op) {
        if (unjournaled == null || !unjournaled.isInstance(op)) {
            ops.add(op);
        }
    }

    // ---- observers -----------------------------------------------------------------------------

    public GatherDurableState durable() {
        NoteEntries.Sorted s = k.sortedFields();
        TreeMap<NoteId, GatherDurableState.Attempt> log = new TreeMap<>();
        k.entries().forEach(e -> {
            if (e.attempt != null) {
                log.put(e.id(), e.attempt);
            }
        });
        return new GatherDurableState(s.k(), s.d(), ts, sessions, log, s.entered(), seen, s.numbers(), s.origins());
    }

    public GatherConfig config() {
        return config;
    }

    public Phase phase() {
        return phase;
    }

    /** The live session's id, 0 if none. */
    public long session() {
        return session;
    }

    public SortedSet<ServerId> stale() {
        return new TreeSet<>(stale);
    }

    public SortedSet<ServerId> replied() {
        return new TreeSet<>(replied);
    }

    public Optional<NoteId> pending() {
        return Optional.ofNullable(pending);
    }

    public SortedSet<NoteId> k() {
        return k.ids();
    }

    public SortedSet<NoteId> d() {
        return k.d();
    }

    public SortedMap<ServerId, Long> ts() {
        return new TreeMap<>(ts);
    }

    /** How many notes have ever entered K here: the watermark this server's syncs carry. */
    public long seen() {
        return seen;
    }

    /** The attempts whose outcome is unknown (after a crash: resolve from the primitive's log). */
    public SortedMap<NoteId, Long> unresolved() {
        TreeMap<NoteId, Long> out = new TreeMap<>();
        k.entries().forEach(e -> {
            if (e.unresolved()) {
                out.put(e.id(), e.attempt.session());
            }
        });
        return out;
    }

    /** The servers this session has asked for D. */
    public SortedSet<ServerId> asked() {
        return new TreeSet<>(asked);
    }

    /** The spec's {@code common}: K at the start intersected with every reply's D. */
    public SortedSet<NoteId> common() {
        return new TreeSet<>(common);
    }

    /** Peer -> the D it last reported since our last crash. */
    public SortedMap<ServerId, SortedSet<NoteId>> known() {
        TreeMap<ServerId, SortedSet<NoteId>> out = new TreeMap<>();
        known.forEach((t, ids) -> out.put(t, new TreeSet<>(ids)));
        return out;
    }

    /** The other servers, in order. */
    protected final Set<ServerId> others() {
        return config.servers().others();
    }
}
