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
 * <p>Sans-IO: state changes happen in the step, durable writes and sends are returned as effects
 * (see {@link ServerStep} for the order). Not thread-safe; one session per server and client.
 */
public abstract sealed class StreamServer permits S0Server, S1Server, S2Server {

    protected final ServerConfig config;
    protected final EoClock clock;
    protected final Limits limits;

    // Durable (ServerDurableState), restored by the constructor.
    /** K: the notes not known to be delivered. Invariant: no id of {@link #removed} is in K. */
    protected final TreeMap<NoteId, Note> k;
    protected long ctr;
    /** Ids known delivered (here or, through syncs, elsewhere). Only grows, except on reuse. */
    protected final TreeSet<NoteId> removed;
    protected long round;
    protected final TreeMap<Long, Long> issued;
    protected final TreeMap<Long, TreeMap<ServerId, Long>> conf;

    // Volatile: lost in a crash (notes Z13).
    private boolean sessionOpen;
    private boolean aborted;
    /** The note of the Deliver in progress, or null. At most one at a time (stop and wait, Z20). */
    private NoteId pending;

    protected StreamServer(ServerConfig config, EoClock clock, Limits limits, ServerDurableState durable) {
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
    }

    /** The sequence number the next note gets, or empty while Condition 1 forbids it (Strategy 2). */
    protected abstract Optional<Long> nextSeq();

    /** Strategies 1-2 end the session on a failed Deliver ({@code abort}, App. A.2); Strategy 0 goes on. */
    protected abstract boolean abortOnTimeout();

    /** The next note of K to offer: the oldest note of some stream. */
    protected abstract Optional<NoteId> nextToSend();

    /** Strategy 2 records confirmations from a sync reply; the others do nothing. */
    protected void confirm(EoMessage.SyncReply reply) {
    }

    /** The spec's {@code CreateNote(x)}: number a new note of this server's stream, replicate it. */
    public ServerStep createNote(String body) {
        Optional<Long> seq = nextSeq();
        if (seq.isEmpty()) {
            return ServerStep.of("blocked");
        }
        NoteId.Sequenced id = NoteId.sequenced(config.self(), seq.get());
        Note note = new Note(id, config.client(), body);
        k.put(id, note);
        removed.remove(id);
        ctr++;
        issued.put(seq.get(), round);
        conf.remove(seq.get());
        List<ServerEffect> effects = new ArrayList<>();
        effects.add(record());
        for (ServerId other : config.others()) {
            effects.add(new ServerEffect.Send(new EoMessage.Replica(config.self(), other, note)));
        }
        return new ServerStep("created " + id.text(), effects);
    }

    /** A replica of a note numbered elsewhere enters K (unless it is already known delivered). */
    public ServerStep receiveReplica(EoMessage.Replica m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("note.client", m.note().client());
        limits.check("note.id", m.note().id());
        NoteId id = m.note().id();
        if (k.containsKey(id) || !acceptReplica(id)) {
            return ServerStep.of("ignored");
        }
        k.put(id, m.note());
        return new ServerStep("stored", List.of(record()));
    }

    /** Strategies 0-1: a removed id never comes back. Strategy 2 overrides: a reused number may. */
    protected boolean acceptReplica(NoteId id) {
        return !removed.contains(id);
    }

    /** The spec's {@code StartSession(s)}: the client connected to this server. */
    public ServerStep startSession() {
        sessionOpen = true;
        aborted = false;
        pending = null;
        return ServerStep.of("started");
    }

    /** The spec's {@code SendNote(s, i)}: the next Deliver of HandleClient's loop. */
    public ServerStep sendNote() {
        if (!sessionOpen || aborted) {
            return ServerStep.of("noSession");
        }
        if (pending != null) {
            return ServerStep.of("busy");
        }
        Optional<NoteId> next = nextToSend();
        if (next.isEmpty()) {
            return ServerStep.of("idle");
        }
        pending = next.get();
        return new ServerStep("sent", List.of(new ServerEffect.Send(
                new EoMessage.NoteDelivery(config.self(), config.client(), k.get(pending)))));
    }

    /**
     * The spec's {@code AckArrive(s, i)}: Deliver succeeded, so i leaves K (App. A.2) and is
     * remembered as removed for the next sync.
     */
    public ServerStep ackArrive(EoMessage.NoteAck m) {
        config.checkToSelf(m.to());
        config.checkClient("from", m.from());
        limits.check("id", m.id());
        if (pending == null || !pending.equals(m.id())) {
            return ServerStep.of("ignored");
        }
        pending = null;
        k.remove(m.id());
        removed.add(m.id());
        return new ServerStep("delivered", List.of(record()));
    }

    /** The spec's {@code Timeout(s)}: Deliver failed; {@code abort} (1-2) or {@code continue} (0). */
    public ServerStep timeout() {
        if (pending == null) {
            return ServerStep.of("ignored");
        }
        pending = null;
        if (abortOnTimeout()) {
            aborted = true;
            return ServerStep.of("aborted");
        }
        return ServerStep.of("continued");
    }

    /** The spec's {@code Disconnect} as seen by this server. */
    public ServerStep endSession() {
        sessionOpen = false;
        aborted = false;
        pending = null;
        return ServerStep.of("ended");
    }

    /** The spec's {@code ServerCrash(s)}: the session is lost; the durable state stays. */
    public void crash() {
        endSession();
    }

    /** The spec's {@code PurgeSync} / {@code SyncReq}: tell every other server what it removed. */
    public ServerStep startSync() {
        round++;
        List<ServerEffect> effects = new ArrayList<>();
        effects.add(record());
        for (ServerId other : config.others()) {
            effects.add(new ServerEffect.Send(new EoMessage.SyncRequest(config.self(), other, config.client(), round,
                    new TreeSet<>(k.keySet()), new TreeSet<>(), new TreeSet<>(removed))));
        }
        return new ServerStep("syncStarted", effects);
    }

    /** The sync handler: drop what the requester removed, reply with K (after the merge) and removals. */
    public ServerStep handleSync(EoMessage.SyncRequest m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.checkAll("removed", m.removed());
        limits.checkAll("k", m.k());
        merge(m.removed());
        return new ServerStep("syncReplied", List.of(record(), new ServerEffect.Send(new EoMessage.SyncReply(
                config.self(), m.from(), config.client(), m.round(), new TreeSet<>(k.keySet()), new TreeSet<>(),
                new TreeSet<>(removed)))));
    }

    /** A sync reply: drop what the replier removed; Strategy 2 also takes its confirmations. */
    public ServerStep receiveSyncReply(EoMessage.SyncReply m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.checkAll("removed", m.removed());
        limits.checkAll("k", m.k());
        merge(m.removed());
        confirm(m);
        return new ServerStep("syncMerged", List.of(record()));
    }

    private void merge(java.util.Set<NoteId> theirRemoved) {
        for (NoteId id : theirRemoved) {
            k.remove(id);
            removed.add(id);
        }
    }

    protected final ServerEffect record() {
        return new ServerEffect.Record(durable());
    }

    public ServerDurableState durable() {
        return new ServerDurableState(k, new TreeSet<>(), ctr, removed, round, issued, new TreeMap<>(conf));
    }

    public boolean sessionOpen() {
        return sessionOpen;
    }

    public Optional<NoteId> pending() {
        return Optional.ofNullable(pending);
    }

    public ServerConfig config() {
        return config;
    }
}
