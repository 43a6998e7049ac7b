package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The server of the sequenced strategies 0-2 (App. A.2 and 3.2) for one client: K, the counter
 * that numbers this server's stream, the removal knowledge exchanged by periodic syncs (notes Z15),
 * and the delivery session (HandleClient). Subclasses fix what differs: how a number is chosen
 * (Strategy 2 wraps, under Condition 1) and whether a failed Deliver aborts the session.
 *
 * <p><b>Removals name their incarnation.</b> Strategy 2 reuses wire ids, so "x.s was removed" in
 * a sync message may speak of an older incarnation of x.s than the one this server now holds (a
 * message built before the reuse and delayed, within T_e, past it). Every note that enters K gets
 * the next entry number ({@code entered}, {@code seen} the last one given), and every sync message
 * carries its sender's {@code seen}: its removals speak only of incarnations numbered at or below
 * it. Under atomic replication (notes Z1) all servers number the same notes alike, so a held
 * incarnation numbered above the sender's watermark is newer than anything the sender removed and
 * stays. The same numbers order a stream by incarnation for HandleClient (the spec's
 * {@code FirstOfStream} over {@code Ord(i) = inc * W + seq}), which the wire id alone cannot do
 * once it wraps. In an immediate exchange, as replay performs the spec's atomic Sync, the sender
 * has seen every note the receiver holds, so the watermark never holds a removal back there.
 *
 * <p>Sans-IO: state changes happen in the step, durable writes and sends are returned as effects
 * (see {@link ServerStep} for the order). Not thread-safe; one session per server and client.
 */
public abstract sealed class StreamServer implements ServerCore permits S0Server, S1Server, S2Server {

    protected final ServerConfig config;
    protected final EoClock clock;
    protected final Limits limits;

    // Durable (ServerDurableState), restored by the constructor.
    /** K: the notes not known to be delivered. Invariant: no id of {@link #removed} is in K. */
    protected final TreeMap<NoteId, Note> k;
    protected long ctr;
    /**
     * Ids known delivered (here or, through syncs, elsewhere); Strategies 0 and 2 keep every such id
     * (only growing, except on reuse), Strategy 1 only the highest of each stream, which stands for
     * the stream's whole delivered prefix ({@link S1Server}). Read and changed through
     * {@link #knownRemoved} and {@link #remove}.
     */
    protected final TreeSet<NoteId> removed;
    protected long round;
    protected final TreeMap<Long, Long> issued;
    protected final TreeMap<Long, TreeMap<ServerId, Long>> conf;
    /**
     * Strategy 0: removed id -> peer -> when that peer's sync first named it removed (the spec
     * ExactlyOnceS0Msg's {@code conf}, read by {@link S0Server}'s forget rule). Invariant: its keys
     * are ids of {@link #removed}; empty in Strategies 1-2.
     */
    protected final TreeMap<NoteId, TreeMap<ServerId, Long>> removedConf = new TreeMap<>();
    /** Note in K -> its entry number (1..seen). Invariant: its keys are K's. */
    protected final TreeMap<NoteId, Long> entered;
    /**
     * Strategy 2: wire id -> the issue number of the incarnation known here (held in K, or named by
     * our removal of it; {@link ServerOp.SetIssue}). Empty in Strategies 0-1.
     */
    protected final TreeMap<NoteId, Long> issues;
    /**
     * The notes of K with a stream (sequenced ids), by stream and entry number: the order in which
     * each stream's notes entered K, so the oldest of a stream is a lookup, not a scan of K.
     * Invariant: holds exactly the entries of {@link #entered} whose id is sequenced.
     */
    private final TreeMap<ServerId, TreeMap<Long, NoteId>> streams = new TreeMap<>();
    /** How many notes ever entered K here; never decreases. */
    private long seen;
    /** Mutation seam (tests): false applies every removal, whatever the sender's watermark. */
    private final boolean watermark;
    /** Every write to a durable field above goes with its {@link ServerOp} here ({@link #journal}). */
    private final OpsRecorder ops = new OpsRecorder();

    // Volatile: lost in a crash (notes Z13).
    /** {@code sess[s].active}: a HandleClient session for the client runs here. */
    private boolean active;
    /** The note of the Deliver in progress, or null. At most one at a time (stop and wait, Z20). */
    private NoteId pending;

    protected StreamServer(ServerConfig config, EoClock clock, Limits limits, ServerDurableState durable) {
        this(config, clock, limits, durable, true);
    }

    StreamServer(ServerConfig config, EoClock clock, Limits limits, ServerDurableState durable, boolean watermark) {
        this.watermark = watermark;
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.limits = Objects.requireNonNull(limits, "limits");
        limits.checkAll("stored k", durable.k().keySet());
        this.k = new TreeMap<>(durable.k());
        this.ctr = durable.ctr();
        this.removed = new TreeSet<>(durable.removed());
        this.round = durable.round();
        this.issued = new TreeMap<>(durable.issued());
        this.conf = new TreeMap<>();
        durable.conf().forEach((s, m) -> conf.put(s, new TreeMap<>(m)));
        durable.removedConf().forEach((i, m) -> removedConf.put(i, new TreeMap<>(m)));
        this.seen = durable.seen();
        this.entered = new TreeMap<>(durable.entered());
        this.issues = new TreeMap<>(durable.issues());
        for (NoteId i : k.keySet()) {
            if (!entered.containsKey(i)) {
                entered.put(i, ++seen); // a state built without numbers: number its notes in id order
            }
        }
        entered.forEach(this::index);
        constructed();
    }

    /**
     * Mutation seam, tests only: operations of {@code kind} are applied to the core but left out of
     * its records, so the store's state drifts from the core's (the defect of a core that forgets
     * to journal one change). Returns this.
     */
    StreamServer withoutJournaling(Class<? extends ServerOp> kind) {
        ops.drop(kind);
        return this;
    }

    /**
     * Drops the operations a constructor made (a stored state normalized: numbered, or Strategy 1's
     * removals cut to prefixes). They follow from the stored state, so recovery makes them again.
     */
    protected final void constructed() {
        ops.clear();
    }

    /** Notes one change to a durable field for the step's record. */
    protected final void journal(ServerOp op) {
        ops.add(op);
    }

    /** A new note into K, with the next entry number. */
    protected final void enter(Note note) {
        k.put(note.id(), note);
        Long old = entered.put(note.id(), ++seen);
        if (old != null) {
            unindex(note.id(), old);
        }
        index(note.id(), seen);
        journal(new ServerOp.Enter(note, seen));
    }

    protected final void forget(NoteId id) {
        if (k.remove(id) != null) {
            unindex(id, entered.remove(id));
            journal(new ServerOp.Forget(id));
        }
    }

    /** What this server knows of {@code id} is of the incarnation issued as number {@code issue}. */
    protected final void setIssue(NoteId id, long issue) {
        Long old = issues.put(id, issue);
        if (old == null || old != issue) {
            journal(new ServerOp.SetIssue(id, issue));
        }
    }

    /** The tags a sync message carries: the issue number each removal names, where known (Strategy 2). */
    private TreeMap<NoteId, Long> tags() {
        TreeMap<NoteId, Long> out = new TreeMap<>();
        for (NoteId id : removed) {
            Long issue = issues.get(id);
            if (issue != null) {
                out.put(id, issue);
            }
        }
        return out;
    }

    protected final void addRemoved(NoteId id) {
        if (removed.add(id)) {
            journal(new ServerOp.AddRemoved(id));
        }
    }

    /** {@code id} leaves {@code removed}, and its confirmations with it ({@link ServerOp.DropRemoved}). */
    protected final void dropRemoved(NoteId id) {
        if (removed.remove(id)) {
            removedConf.remove(id);
            journal(new ServerOp.DropRemoved(id));
        }
    }

    /** Whether {@code id} is known delivered, here or elsewhere. */
    protected boolean knownRemoved(NoteId id) {
        return removed.contains(id);
    }

    /** {@code id} is known delivered (acked here, or a peer's sync says so): it leaves K for good. */
    protected void remove(NoteId id) {
        forget(id);
        addRemoved(id);
    }

    /**
     * A removal a peer's sync carries. Applied unless the id held here is of an incarnation newer
     * than the sender's watermark (see the class doc; Strategy 2's reuse is what makes that happen).
     */
    protected void mergeRemoval(NoteId id, long theirSeen) {
        Long held = entered.get(id);
        if (held != null && held > theirSeen && watermark) {
            return;
        }
        remove(id);
    }

    /** Strategy 2: number {@code seq} was issued now (its replicas are on the way). */
    protected void numberIssued(long seq) {
    }

    /** Strategy 2: a sync round starts ({@link #round} already counts it), before its requests are built. */
    protected void syncStarted() {
    }

    /** Whether this strategy needs the sync round each number was issued in (Strategy 2's Condition 1). */
    protected boolean recordsIssueRounds() {
        return false;
    }

    /**
     * Whether {@code i} is the oldest incarnation of its stream in K (the spec's FirstOfStream):
     * no note of the same stream entered K before it.
     */
    protected final boolean firstOfStream(NoteId i) {
        TreeMap<Long, NoteId> stream = streams.get(((NoteId.Sequenced) i).server());
        return stream != null && stream.firstEntry().getValue().equals(i);
    }

    /** The oldest note of each stream in K (the spec's FirstOfStream notes), the lowest id first. */
    protected final Optional<NoteId> firstOfSomeStream() {
        NoteId best = null;
        for (TreeMap<Long, NoteId> stream : streams.values()) {
            NoteId first = stream.firstEntry().getValue();
            if (best == null || first.compareTo(best) < 0) {
                best = first;
            }
        }
        return Optional.ofNullable(best);
    }

    private void index(NoteId id, long number) {
        if (id instanceof NoteId.Sequenced s) {
            streams.computeIfAbsent(s.server(), x -> new TreeMap<>()).put(number, id);
        }
    }

    private void unindex(NoteId id, long number) {
        if (id instanceof NoteId.Sequenced s) {
            TreeMap<Long, NoteId> stream = streams.get(s.server());
            stream.remove(number);
            if (stream.isEmpty()) {
                streams.remove(s.server());
            }
        }
    }

    /** The sequence number the next note gets, or empty while Condition 1 forbids it (Strategy 2). */
    protected abstract Optional<Long> nextSeq();

    /** The next note of K to offer: the oldest note of some stream. */
    protected abstract Optional<NoteId> nextToSend();

    /** Whether HandleClient's loop may offer {@code i} now (Strategies 1-2: the oldest of its stream). */
    protected abstract boolean mayOffer(NoteId i);

    /** Strategy 2 records confirmations from a sync reply; the others do nothing. */
    protected void confirm(EoMessage.SyncReply reply) {
    }

    /** Strategies 1-2 number their notes: {@code id} must be empty (Strategy 0 overrides). */
    @Override
    public ServerStep createNote(Optional<NoteId> id, String body) {
        if (id.isPresent()) {
            throw new IllegalArgumentException(strategy() + " numbers its notes itself: createNote takes no id, got "
                    + id.get());
        }
        return createNote(body);
    }

    /**
     * The spec's {@code CreateNote(x)}: number a new note of this server's stream, replicate it.
     * Outcome {@code "blocked"} (no change) while Strategy 2's Condition 1 forbids the next number.
     */
    public ServerStep createNote(String body) {
        Optional<Long> seq = nextSeq();
        if (seq.isEmpty()) {
            return ServerStep.of("blocked");
        }
        NoteId.Sequenced id = NoteId.sequenced(config.self(), seq.get());
        Note note = new Note(id, config.client(), body);
        enter(note);
        dropRemoved(id); // Strategy 2 reuses a number: its older incarnation's removal no longer applies
        long issue = ctr;
        ctr++;
        journal(new ServerOp.SetCtr(ctr));
        if (recordsIssueRounds()) {
            issued.put(seq.get(), round);
            conf.remove(seq.get());
            journal(new ServerOp.Issue(seq.get(), round));
            numberIssued(seq.get());
            setIssue(id, issue); // the incarnation's own number, which its replicas carry (rule "tag")
            return ServerCore.created("created " + id.text(), config, note, record(), issue);
        }
        return ServerCore.created("created " + id.text(), config, note, record());
    }

    /** A replica of a note numbered elsewhere enters K (unless it is already known delivered). */
    @Override
    public ServerStep receiveReplica(EoMessage.Replica m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("note.client", m.note().client());
        limits.check("note.id", m.note().id());
        NoteId id = m.note().id();
        if (k.containsKey(id) || !acceptReplica(id)) {
            return ServerStep.of("ignored");
        }
        enter(m.note());
        if (recordsIssueRounds() && m.issue() != EoMessage.NO_ISSUE) {
            setIssue(id, m.issue());
        }
        return new ServerStep("stored", List.of(record()));
    }

    /** Strategies 0-1: a removed id never comes back. Strategy 2 overrides: a reused number may. */
    protected boolean acceptReplica(NoteId id) {
        return !knownRemoved(id);
    }

    /** The spec's {@code StartSession(s)}: the client connected to this server. */
    @Override
    public ServerStep startSession() {
        active = true;
        pending = null;
        return ServerStep.of("started");
    }

    /** The spec's {@code SendNote(s, i)} with the loop's own choice of i: the oldest of some stream. */
    @Override
    public ServerStep sendNote() {
        Optional<NoteId> next = active && pending == null ? nextToSend() : Optional.empty();
        return next.isEmpty() ? ServerStep.of(active && pending == null ? "idle" : "busy") : sendNote(next.get());
    }

    /**
     * The spec's {@code SendNote(s, i)}: {@code Deliver(c, i)} starts. Refused (no state change) when
     * no session runs, a Deliver is outstanding (one at a time, Z20), or i may not be offered now.
     */
    @Override
    public ServerStep sendNote(NoteId i) {
        if (!active || pending != null || !k.containsKey(i) || !mayOffer(i)) {
            return ServerStep.of("refused");
        }
        pending = i;
        return new ServerStep("sent", List.of(new ServerEffect.Send(
                new EoMessage.NoteDelivery(config.self(), config.client(), k.get(pending)))));
    }

    /**
     * The spec's {@code ReceiveAck(s, i)}: Deliver succeeded, so i leaves K (App. A.2) and is
     * remembered as removed for the next sync.
     */
    @Override
    public ServerStep receiveAck(EoMessage.NoteAck m) {
        config.checkToSelf(m.to());
        config.checkClient("from", m.from());
        limits.check("id", m.id());
        if (pending == null || !pending.equals(m.id())) {
            return ServerStep.of("ignored");
        }
        pending = null;
        remove(m.id());
        return new ServerStep("delivered", List.of(record()));
    }

    /** The spec's {@code Timeout(s, i)}: Deliver failed; the session ends ({@code abort}, App. A.2). */
    @Override
    public ServerStep timeout() {
        if (pending == null) {
            return ServerStep.of("ignored");
        }
        pending = null;
        active = false;
        return ServerStep.of("aborted");
    }

    /** The session ends without a failure (the client went away; the runtime noticed). */
    @Override
    public ServerStep endSession() {
        active = false;
        pending = null;
        return ServerStep.of("ended");
    }

    /** The spec's {@code ServerCrash(s)}: the session is lost; the durable state stays. */
    public void crash() {
        endSession();
    }

    /**
     * The spec's {@code Sync(s, t)} is one atomic exchange; here it is three steps, as on a real
     * network: {@code startSync} (requests), {@link #handleSync} at t, {@link #receiveSyncReply}.
     * Afterwards both K are {@code K[s] \cap K[t]} (under atomic replication an id is missing from
     * a K only because its server knows it delivered, which is what {@code removed} carries).
     */
    @Override
    public ServerStep startSync() {
        round++;
        journal(new ServerOp.SetRound(round));
        syncStarted();
        List<ServerEffect> effects = new ArrayList<>();
        effects.add(record());
        for (ServerId other : config.others()) {
            effects.add(new ServerEffect.Send(new EoMessage.SyncRequest(config.self(), other, config.client(), round,
                    new TreeSet<>(k.keySet()), new TreeSet<>(), new TreeSet<>(removed), seen, tags())));
        }
        return new ServerStep("syncStarted", effects);
    }

    /** The sync handler: drop what the requester removed, reply with K (after the merge) and removals. */
    @Override
    public ServerStep handleSync(EoMessage.SyncRequest m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.checkAll("removed", m.removed());
        limits.checkAll("k", m.k());
        limits.checkAll("d", m.d());
        merge(m.removed(), m.seen(), m.tags());
        confirmRemovals(m.from(), m.removed());
        return new ServerStep("syncReplied", List.of(record(), new ServerEffect.Send(new EoMessage.SyncReply(
                config.self(), m.from(), config.client(), m.round(), new TreeSet<>(k.keySet()), new TreeSet<>(),
                new TreeSet<>(removed), seen, tags()))));
    }

    /** A sync reply: drop what the replier removed; Strategy 2 also takes its confirmations. */
    @Override
    public ServerStep receiveSyncReply(EoMessage.SyncReply m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.checkAll("removed", m.removed());
        limits.checkAll("k", m.k());
        limits.checkAll("d", m.d());
        config.checkReplyRound(m.round(), round);
        merge(m.removed(), m.seen(), m.tags());
        confirmRemovals(m.from(), m.removed());
        confirm(m);
        return new ServerStep("syncMerged", List.of(record()));
    }

    /**
     * After the merge of a sync message of {@code from}: Strategy 0 notes which of its removed ids
     * {@code from} confirmed (ExactlyOnceS0Msg's {@code Confirm}); the others do nothing.
     */
    protected void confirmRemovals(ServerId from, java.util.Set<NoteId> theirRemoved) {
    }

    /** Their removals with their tags (Strategy 2 reads them, {@link S2Server}); the others ignore the tags. */
    protected void merge(java.util.Set<NoteId> theirRemoved, long theirSeen, java.util.SortedMap<NoteId, Long> theirTags) {
        merge(theirRemoved, theirSeen);
    }

    /** Their removals, except of an incarnation newer than their watermark (see the class doc). */
    protected void merge(java.util.Set<NoteId> theirRemoved, long theirSeen) {
        for (NoteId id : theirRemoved) {
            mergeRemoval(id, theirSeen);
        }
    }

    /** The step's record: the operations made since the last one (the state itself is not copied). */
    protected final ServerEffect record() {
        return ops.take();
    }

    @Override
    public ServerDurableState durable() {
        return new ServerDurableState(k, new TreeSet<>(), ctr, removed, round, issued, new TreeMap<>(conf), entered,
                seen, new TreeMap<>(), new TreeMap<>(), new TreeMap<>(removedConf), issues);
    }

    /** {@code sess[s].active}. */
    @Override
    public boolean active() {
        return active;
    }

    @Override
    public Optional<NoteId> pending() {
        return Optional.ofNullable(pending);
    }

    public ServerConfig config() {
        return config;
    }
}
