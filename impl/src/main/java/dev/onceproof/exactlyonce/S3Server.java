package dev.onceproof.exactlyonce;

import dev.onceproof.steplog.StepLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Strategy 3, Id List, the server (3.2 and App. A.4) for one client: K (notes not yet purged) and
 * D (those known delivered), the delivery session (HandleClient), a synchronization round
 * (ServerSynch) and its handler, and purge authorization.
 *
 * <p>A note enters D when a Deliver to the client succeeds (or, by sync, when another server's D
 * has it); once this server has seen it in every server's D in one complete round, and T_e has
 * passed since (so no copy any server sent before learning of the delivery can linger, L131,
 * notes Z4), it may tell the client "Please purge i"; only when the client confirms does i leave
 * K and D here (the others follow by the K-difference rule of App. A.4, sound under atomic
 * replication, notes Z1).
 *
 * <p><b>Why the sync messages carry a watermark, which the spec's Sync does not need.</b> The spec's
 * {@code Sync(s, t)} is one atomic exchange of both servers' current K and D, and a note enters
 * every K at once (CreateNote, notes Z1), so every note either side holds existed when the other
 * side's snapshot was taken: a note missing from the other's K was purged there. Here the exchange
 * is three messages, and a request or reply may be delayed (within T_e) past the creation of a
 * note, its delivery and its entry into our D. Read by App. A.4's rule "P = K - Ks", that stale
 * snapshot says the note was purged elsewhere; dropping it would leave the client's R holding its
 * id for ever (no server could authorize the purge again; L169: R is freed only by a purge), which
 * with R full stops all later deliveries (found by {@code S3StaleSyncProperties}). So each server
 * numbers notes in the order they enter its K ({@code entered}; {@code seen} is the last number)
 * and every sync message carries the sender's {@code seen}; the K-difference rule applies only to
 * notes numbered at or below it, the notes the snapshot could have known. Under atomic
 * replication every server numbers the same notes in the same order, so number n names the same
 * note everywhere. In an immediate exchange (as trace replay performs the spec's Sync) the sender
 * has seen every note the receiver has, so the rule applies exactly as the spec's Sync applies it:
 * the atomic Sync remains a faithful abstraction of the three messages (checked: every stored
 * trace replays, and {@code S3StaleSyncProperties} finds the core with and without the watermark
 * in the same K, D and R after any schedule of immediate exchanges).
 *
 * <p><b>The acknowledged replication round</b> (specs/exactlyonce/README.md, "Replication: the
 * acknowledged round"; notes Z1). The spec's CreateNote enters a note in every K at once; here a
 * replica travels. So a note is offered to the client only once every server has stored it: a
 * server stores a replica and acknowledges it with the number it gave the note
 * ({@link EoMessage.ReplicaAck}); once the origin holds every server's number it commits and sends
 * them all to every server ({@link EoMessage.ReplicaCommit}); a note is deliverable at a server
 * only once committed there. Servers still number notes in different orders (arrival order), so
 * the K-difference rule reads a sync's watermark against the SENDER's own number for the note,
 * known from the round (unknown: the snapshot vouches for nothing): "missing from its K, and its
 * number there within its watermark" then means the sender had stored the note and no longer held
 * it. The round alone, with our own numbers, is refuted by TLC
 * ({@code exactlyonce-control-s3msg-round-alone}). Lost round messages are resent with the next
 * sync. A replica that arrives after its note was purged (possible only beyond the lifetime T_e)
 * is stored but never committed, so never offered. While a server is down, notes created meanwhile
 * are deliverable nowhere: the round trades that availability for exactly-once.
 *
 * <p>Sans-IO and not thread-safe; {@code ConcurrentS3Server} shares one between a session thread
 * and sync threads.
 */
public final class S3Server implements ServerCore {

    private final ServerConfig config;
    private final EoClock clock;
    private final S3Variant variant;
    private final boolean watermark;
    /** Mutation seam: false makes a note deliverable as soon as it is in K (no replication round). */
    private final boolean replicationRound;
    private final Limits limits = Limits.global();
    /**
     * The step log (specs/exactlyonce/TraceExactlyOnceS3.tla; README, "Trace validation"): each
     * step that changes the spec's state writes one line, named after ExactlyOnceS3MsgRound's
     * action, inside the step, so before the caller saves its record or sends its messages.
     * {@link StepLog#OFF} unless {@link #logSteps} set one: hooks test {@code log.on()} first.
     */
    private StepLog log = StepLog.OFF;

    // Durable.
    /** K. Invariant: contains every id of D. */
    private final TreeMap<NoteId, Note> k;
    private final TreeSet<NoteId> d;
    private long round;
    /** How many notes have ever entered K here (createNote, receiveReplica); never decreases. */
    private long seen;
    /** Note in K -> its number in the order notes entered K (1..seen). Invariant: its keys are K's. */
    private final TreeMap<NoteId, Long> entered;
    /**
     * The replication round: note -> each server's number for it as far as we know (ours always).
     * Complete (the note may be delivered) when it names every server; a note of K with no entry
     * predates the round and counts as complete. Invariant: its keys are in K.
     */
    private final TreeMap<NoteId, TreeMap<ServerId, Long>> numbers = new TreeMap<>();
    /** The notes of K whose round is not complete here -> their origin. Invariant: keys in numbers. */
    private final TreeMap<NoteId, ServerId> origins;
    /** Every write to a durable field above goes with its {@link ServerOp} here. */
    private final OpsRecorder ops = new OpsRecorder();
    /**
     * K - D of the notes whose round is complete here: what a session may offer, kept as the fields
     * change ({@link #refresh}) so that choosing the next note does not copy K at every step.
     * Invariant: equals {@code {i in K : i not in D, i not in origins}}.
     */
    private final TreeSet<NoteId> ready = new TreeSet<>();

    // Volatile (notes Z13): sessions and sync knowledge die with the server.
    /** {@code sess[s].active}. */
    private boolean active;
    /** {@code sess[s].pending}: the note of the outstanding Deliver, or null (one at a time). */
    private NoteId pending;
    /**
     * S3Printed's {@code U[s]}: what the session snapshotted at its start, minus what it sent. Left
     * as it is when the session ends (as the printed spec does); only a session can send from it.
     */
    private final TreeSet<NoteId> u = new TreeSet<>();
    /** A Deliver succeeded since the last sync started (App. A.4 forks ServerSynch then). */
    private boolean syncPending;
    /**
     * {@code known[s][t]}: the D peer t reported in its last sync message to us. Only ever what t
     * itself sent, so "i in known[t]" means t really had i in D (and D loses i only with K).
     */
    private final TreeMap<ServerId, SortedSet<NoteId>> known = new TreeMap<>();
    /**
     * The order in which notes' replication rounds completed here since the last crash (a note
     * missing here: 0, before any that completed since). A session offers the earliest first, so the
     * client meets notes in the order they became deliverable, as under atomic replication it meets
     * them in creation order: a note the client took whose acknowledgement was lost is offered again
     * before notes that became deliverable after it (else, with R full, the client would refuse
     * those for ever and the lost acknowledgement never be repaired).
     */
    private final TreeMap<NoteId, Long> readyOrder = new TreeMap<>();
    private long readyCount;
    /** When i was first seen in our D and every known D: purge may be authorized T_e later (Z4). */
    private final TreeMap<NoteId, Long> confirmedAt = new TreeMap<>();

    public S3Server(ServerConfig config, EoClock clock, S3Variant variant, ServerDurableState durable) {
        this(config, clock, variant, durable, true, true);
    }

    S3Server(ServerConfig config, EoClock clock, S3Variant variant, ServerDurableState durable, boolean watermark) {
        this(config, clock, variant, durable, watermark, true);
    }

    /**
     * Mutation seam for tests: {@code watermark = false} applies the K-difference rule to every
     * note, whatever the snapshot's {@code seen} (the core before the watermark), so a test can show
     * that its check catches the stale-snapshot purge. {@code replicationRound = false} makes a note
     * deliverable as soon as it enters K, at its origin on createNote and elsewhere on its replica,
     * and reads a sync's watermark against our own number for a note (the core before the round),
     * so a test can show that its check catches asynchronous replication (notes Z1, M3-f).
     */
    S3Server(ServerConfig config, EoClock clock, S3Variant variant, ServerDurableState durable, boolean watermark,
            boolean replicationRound) {
        this.watermark = watermark;
        this.replicationRound = replicationRound;
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.variant = Objects.requireNonNull(variant, "variant");
        limits.checkAll("stored k", durable.k().keySet());
        this.k = new TreeMap<>(durable.k());
        this.d = new TreeSet<>(durable.d());
        this.round = durable.round();
        this.seen = durable.seen();
        this.entered = new TreeMap<>(durable.entered());
        for (NoteId i : k.keySet()) {
            if (!entered.containsKey(i)) {
                entered.put(i, ++seen); // a state built without numbers: number its notes in id order
            }
        }
        durable.numbers().forEach((i, m) -> numbers.put(i, new TreeMap<>(m)));
        this.origins = new TreeMap<>(durable.origins());
        k.keySet().forEach(this::refresh);
        reconfirm();
    }

    /**
     * After a restart or a crash {@code confirmedAt} is empty: a note of D that is in every D as we
     * now know it counts as confirmed from now, so its purge may be authorized T_e later (counting
     * from now is safe: every copy sent before is older). With peers nothing qualifies (known is
     * empty until their next sync, whose merge confirms as before); a lone server has no sync to wait
     * for, and without this never authorized the purge of a note it had delivered before a crash,
     * so the client's R filled with such ids and every later note was refused (found by the server
     * SIGKILL run, issue 21; the spec's Authorize allows the purge at once).
     */
    private void reconfirm() {
        for (NoteId i : d) {
            if (inEveryD(i)) {
                confirmedAt.putIfAbsent(i, clock.now());
            }
        }
    }

    /**
     * Mutation seam, tests only: operations of {@code kind} are applied to the core but left out of
     * its records, so the store's state drifts from the core's. Returns this.
     */
    S3Server withoutJournaling(Class<? extends ServerOp> kind) {
        ops.drop(kind);
        return this;
    }

    /** Puts i in {@link #ready} or takes it out, after a change to K, D or origins at i. */
    private void refresh(NoteId i) {
        if (k.containsKey(i) && !d.contains(i) && !origins.containsKey(i)) {
            ready.add(i);
        } else {
            ready.remove(i);
        }
    }

    private void setNumbers(NoteId id, TreeMap<ServerId, Long> nums) {
        numbers.put(id, nums);
        ops.add(new ServerOp.SetNumbers(id, nums));
    }

    private void setOrigin(NoteId id, ServerId origin) {
        origins.put(id, origin);
        ops.add(new ServerOp.Origin(id, origin));
        refresh(id);
    }

    /** The round of i is complete here: i leaves origins (and may now be offered). */
    private void completeRound(NoteId id) {
        if (origins.remove(id) != null) {
            ops.add(new ServerOp.Complete(id));
            refresh(id);
        }
    }

    private void addD(NoteId id) {
        if (d.add(id)) {
            ops.add(new ServerOp.AddD(id));
            refresh(id);
        }
    }

    /** i leaves K and everything kept per note of K (a purge, or a sync's K-difference). */
    private void forget(NoteId id) {
        k.remove(id);
        d.remove(id);
        entered.remove(id);
        numbers.remove(id);
        origins.remove(id);
        readyOrder.remove(id);
        ready.remove(id);
        ops.add(new ServerOp.Forget(id));
    }

    /**
     * Logs this core's steps to {@code log} (shared with the other cores of a run; lines are
     * written under its monitor, so they are in the order the steps took effect). Returns this.
     */
    public S3Server logSteps(StepLog log) {
        this.log = Objects.requireNonNull(log, "log");
        return this;
    }

    /** Starts a line naming this server; the caller holds the log's monitor and calls end(). */
    private StepLog line(String action) {
        return log.step(action).field("server", config.self().name());
    }

    private static List<String> texts(java.util.Collection<NoteId> ids) {
        List<String> out = new ArrayList<>(ids.size());
        ids.forEach(i -> out.add(i.text()));
        return out;
    }

    /** A round message's receipt: the note, the peer, the number it carries and what came of it. */
    private ServerStep logRound(String action, ServerStep step, ServerId from, NoteId id, long n) {
        if (log.on()) {
            synchronized (log) {
                StepLog l = line(action).field("from", from.name()).field("note", id.text());
                if (n > 0) {
                    l.field("n", n);
                }
                l.field("outcome", step.outcome()).end();
            }
        }
        return step;
    }

    /** A sync message merged: what it carried and our K and D after the merge. */
    private void logSync(String action, ServerId from, Set<NoteId> theirK, Set<NoteId> theirD, long theirSeen) {
        if (log.on()) {
            synchronized (log) {
                line(action).field("peer", from.name()).strings("k", texts(theirK)).strings("d", texts(theirD))
                        .field("seen", theirSeen).strings("K", texts(k.keySet())).strings("D", texts(d)).end();
            }
        }
    }

    /** A line naming one note (SendNote, Timeout, Authorize, ...). */
    private void logNote(String action, NoteId id) {
        if (log.on()) {
            synchronized (log) {
                line(action).field("note", id.text()).end();
            }
        }
    }

    public static S3Server fresh(ServerConfig config, EoClock clock) {
        return new S3Server(config, clock, S3Variant.CORRECTED, ServerDurableState.initial());
    }

    @Override
    public Strategy strategy() {
        return Strategy.S3;
    }

    /** Strategy 3's notes are named by the caller (globally unique ids, L127). */
    @Override
    public ServerStep createNote(Optional<NoteId> id, String body) {
        return createNote(EoServer.named(strategy(), id), body);
    }

    /** The purge acknowledgement, the replication round's messages, then those every Strategy 0-3 server takes. */
    @Override
    public ServerStep receive(EoMessage m) {
        if (m instanceof EoMessage.PurgeAck a) {
            return receivePurgeAck(a);
        } else if (m instanceof EoMessage.ReplicaAck a) {
            return receiveReplicaAck(a);
        } else if (m instanceof EoMessage.ReplicaCommit c) {
            return receiveReplicaCommit(c);
        }
        return ServerCore.super.receive(m);
    }

    /** The spec's {@code CreateNote(n)} at its origin: into K here and, by replicas, everywhere. */
    public ServerStep createNote(NoteId id, String body) {
        limits.check("id", id);
        if (k.containsKey(id)) {
            throw new IllegalArgumentException("note " + id + " already exists on " + config.self()
                    + "; Strategy 3 needs globally unique ids (L127)");
        }
        Note note = new Note(id, config.client(), body);
        enter(note);
        if (replicationRound && !config.others().isEmpty()) {
            setNumbers(id, own(id));
            setOrigin(id, config.self());
        }
        logNote("CreateNote", id);
        return ServerCore.created("created", config, note, record());
    }

    /**
     * A replica from its origin enters K, numbered here, and (with the round) is acknowledged with
     * that number; it may be delivered only once the origin's commit arrives. A replica of a note we
     * already hold is acknowledged again (the first ack may have been lost).
     */
    @Override
    public ServerStep receiveReplica(EoMessage.Replica m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("note.client", m.note().client());
        limits.check("note.id", m.note().id());
        NoteId id = m.note().id();
        if (k.containsKey(id)) {
            return logRound("ReceiveReplica", replicationRound && m.from().equals(origins.get(id))
                    ? new ServerStep("acknowledged", List.of(ack(id))) : ServerStep.of("ignored"), m.from(), id,
                    entered.get(id));
        }
        enter(m.note());
        if (!replicationRound) {
            return logRound("ReceiveReplica", new ServerStep("stored", List.of(record())), m.from(), id, entered.get(id));
        }
        setNumbers(id, own(id));
        setOrigin(id, m.from());
        return logRound("ReceiveReplica", new ServerStep("stored", List.of(record(), ack(id))), m.from(), id,
                entered.get(id));
    }

    /** The round's numbers of a note just stored here: ours only. */
    private TreeMap<ServerId, Long> own(NoteId id) {
        TreeMap<ServerId, Long> nums = new TreeMap<>();
        nums.put(config.self(), entered.get(id));
        return nums;
    }

    private ServerEffect ack(NoteId id) {
        return new ServerEffect.Send(new EoMessage.ReplicaAck(config.self(), origins.get(id), config.client(), id,
                entered.get(id)));
    }

    /**
     * At the note's origin: {@code from} stored the replica as its number. Once every server has,
     * the round is complete: the note may be delivered here, and every other server hears so with
     * every server's number ({@link EoMessage.ReplicaCommit}). An ack for a note whose round is
     * already complete is answered with the commit again (the peer lacks it); for a note no longer
     * in K (purged), ignored.
     */
    public ServerStep receiveReplicaAck(EoMessage.ReplicaAck m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.check("id", m.id());
        NoteId id = m.id();
        return logRound("ReceiveReplicaAck", replicaAck(m, id), m.from(), id, m.number());
    }

    private ServerStep replicaAck(EoMessage.ReplicaAck m, NoteId id) {
        TreeMap<ServerId, Long> nums = numbers.get(id);
        if (!replicationRound || nums == null) {
            return ServerStep.of("ignored");
        }
        if (!complete(id)) {
            if (!config.self().equals(origins.get(id))) {
                throw new InvalidMessageException("to", "ack for note " + id + ", whose origin is "
                        + origins.get(id) + ", not " + config.self());
            }
            nums.put(m.from(), m.number());
            ops.add(new ServerOp.Number(id, m.from(), m.number()));
            if (nums.size() < config.servers().size()) {
                return new ServerStep("acknowledged", List.of(record()));
            }
            completeRound(id);
            readyOrder.put(id, ++readyCount);
            List<ServerEffect> effects = new ArrayList<>();
            effects.add(record());
            for (ServerId t : config.others()) {
                effects.add(commitTo(t, id));
            }
            return new ServerStep("committed", effects);
        }
        return nums.size() == config.servers().size() && m.number() == nums.get(m.from())
                ? new ServerStep("recommitted", List.of(commitTo(m.from(), id))) : ServerStep.of("ignored");
    }

    private ServerEffect commitTo(ServerId t, NoteId id) {
        return new ServerEffect.Send(new EoMessage.ReplicaCommit(config.self(), t, config.client(), id,
                numbers.get(id)));
    }

    /**
     * From the note's origin: every server stored it; it may be delivered here, and a sync's
     * watermark is read against each server's own number for it. For a note not in K (purged
     * here) or already complete, ignored. A commit that gives us a number other than ours is not
     * about our copy and is refused.
     */
    public ServerStep receiveReplicaCommit(EoMessage.ReplicaCommit m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.check("id", m.id());
        NoteId id = m.id();
        if (!replicationRound || !k.containsKey(id) || complete(id)) {
            return logRound("ReceiveCommit", ServerStep.of("ignored"), m.from(), id, 0);
        }
        if (!m.numbers().keySet().equals(config.servers())) {
            throw new InvalidMessageException("numbers", "names " + m.numbers().keySet() + ", not the servers "
                    + config.servers());
        }
        if (!m.numbers().get(config.self()).equals(entered.get(id))) {
            throw new InvalidMessageException("numbers[" + config.self() + "]", m.numbers().get(config.self())
                    + " for note " + id + ", which is number " + entered.get(id) + " here");
        }
        setNumbers(id, new TreeMap<>(m.numbers()));
        completeRound(id);
        readyOrder.put(id, ++readyCount);
        return logRound("ReceiveCommit", new ServerStep("committed", List.of(record())), m.from(), id, 0);
    }

    /** When i became deliverable here, in {@link #readyOrder}'s count (0: before any since the last crash). */
    private long order(NoteId i) {
        Long at = readyOrder.get(i);
        return at == null ? 0 : at;
    }

    /** Whether note i's replication round is complete here (or i predates the round). */
    private boolean complete(NoteId i) {
        TreeMap<ServerId, Long> nums = numbers.get(i);
        return nums == null || !origins.containsKey(i) && nums.size() == config.servers().size();
    }

    private void enter(Note note) {
        k.put(note.id(), note);
        entered.put(note.id(), ++seen);
        ops.add(new ServerOp.Enter(note, seen));
        refresh(note.id());
    }

    /**
     * The spec's {@code StartSession(s)}: "Request my notes" arrived; a new session replaces any
     * old one (Z12). The printed variant takes its snapshot {@code U = K - D} here (App. A.4).
     */
    @Override
    public ServerStep startSession() {
        if (log.on()) {
            synchronized (log) {
                if (pending != null) {
                    line("Timeout").field("note", pending.text()).end(); // the old Deliver is abandoned
                }
                line("StartSession").end();
            }
        }
        active = true;
        pending = null;
        u.clear();
        if (variant == S3Variant.PRINTED) {
            u.addAll(undelivered());
        }
        return ServerStep.of("started");
    }

    /** The spec's {@code SendNote(s, i)} with the loop's own choice of i (the first eligible). */
    @Override
    public ServerStep sendNote() {
        SortedSet<NoteId> candidates = variant == S3Variant.PRINTED ? u : undelivered();
        if (candidates.isEmpty() || !active || pending != null) {
            return ServerStep.of(active && pending == null ? "idle" : "busy");
        }
        NoteId first = candidates.first();
        if (variant == S3Variant.CORRECTED) {
            for (NoteId i : candidates) {
                if (order(i) < order(first)) {
                    first = i;
                }
            }
        }
        return sendNote(first);
    }

    /**
     * The spec's {@code SendNote(s, i)}: {@code Deliver(c, i)} starts, if a session runs with no
     * Deliver outstanding and i is still in {@code K - D} (corrected, notes Z5) or, as printed, in
     * the session's snapshot U. Otherwise refused, changing nothing.
     */
    @Override
    public ServerStep sendNote(NoteId i) {
        boolean eligible = variant == S3Variant.PRINTED ? u.contains(i) : undelivered().contains(i);
        if (!active || pending != null || !eligible) {
            return ServerStep.of("refused");
        }
        u.remove(i);
        pending = i;
        logNote("SendNote", i);
        Note note = k.get(i);
        if (note == null) {
            // Only the printed variant gets here: i was purged after the snapshot. Its body is gone,
            // but the id (all the client judges) is not; the paper's loop delivers it all the same.
            note = new Note(i, config.client(), "");
        }
        return new ServerStep("sent", List.of(new ServerEffect.Send(
                new EoMessage.NoteDelivery(config.self(), config.client(), note))));
    }

    /** The spec's {@code ReceiveAck(s, i)}: Deliver succeeded; i into D (App. A.4), sync wanted. */
    @Override
    public ServerStep receiveAck(EoMessage.NoteAck m) {
        config.checkToSelf(m.to());
        config.checkClient("from", m.from());
        limits.check("id", m.id());
        if (pending == null || !pending.equals(m.id())) {
            return ServerStep.of("ignored");
        }
        pending = null;
        syncPending = true;
        if (!k.containsKey(m.id()) || d.contains(m.id())) {
            logAck(m.id());
            return ServerStep.of("delivered");
        }
        addD(m.id());
        if (inEveryD(m.id())) {
            confirmedAt.putIfAbsent(m.id(), clock.now());
        }
        logAck(m.id());
        return new ServerStep("delivered", List.of(record()));
    }

    private void logAck(NoteId id) {
        if (log.on()) {
            synchronized (log) {
                line("ReceiveAck").field("note", id.text()).strings("D", texts(d)).end();
            }
        }
    }

    /** The spec's {@code Timeout(s, i)}: a Deliver failed; the session ends (App. A.4 {@code abort}). */
    @Override
    public ServerStep timeout() {
        if (pending == null) {
            return ServerStep.of("ignored");
        }
        logNote("Timeout", pending);
        pending = null;
        active = false;
        return ServerStep.of("aborted");
    }

    /** The session ends without a failure (the client went away; the runtime noticed). */
    @Override
    public ServerStep endSession() {
        if (log.on()) {
            synchronized (log) {
                if (pending != null) {
                    line("Timeout").field("note", pending.text()).end(); // the spec's abort
                } else if (active) {
                    line("EndSession").end(); // no spec step: its session stays, idle
                }
            }
        }
        active = false;
        pending = null;
        return ServerStep.of("ended");
    }

    /** The spec's {@code ServerCrash(s)}: sessions and sync knowledge are lost, K and D are not. */
    public void crash() {
        if (log.on()) {
            synchronized (log) {
                line("ServerCrash").end();
            }
        }
        active = false;
        pending = null;
        syncPending = false;
        known.clear();
        confirmedAt.clear();
        readyOrder.clear();
        reconfirm();
    }

    /**
     * ServerSynch (App. A.4): send "Server synchronization: K, D" to every other server. The spec's
     * {@code Sync(s, t)} is one atomic exchange; here it is {@code startSync} at s,
     * {@link #handleSync} at t and {@link #receiveSyncReply} at s, as on a real network, each side
     * learning only the D the other actually sent.
     */
    @Override
    public ServerStep startSync() {
        round++;
        ops.add(new ServerOp.SetRound(round));
        syncPending = false;
        if (log.on()) {
            synchronized (log) {
                line("StartSync").strings("k", texts(k.keySet())).strings("d", texts(d)).field("seen", seen).end();
            }
        }
        List<ServerEffect> effects = new ArrayList<>();
        effects.add(record());
        for (ServerId other : config.others()) {
            effects.add(new ServerEffect.Send(new EoMessage.SyncRequest(config.self(), other, config.client(), round,
                    new TreeSet<>(k.keySet()), d, new TreeSet<>(), seen)));
        }
        effects.addAll(resendRound());
        return new ServerStep("syncStarted", effects);
    }

    /**
     * The rounds not complete here, carried on with the periodic sync (so a lost replica, ack or
     * commit delays a note, never loses it): at the origin, the replica again to every server that
     * has not acknowledged; elsewhere, the ack again (the origin answers a late one with the commit).
     */
    private List<ServerEffect> resendRound() {
        List<ServerEffect> out = new ArrayList<>();
        origins.forEach((id, origin) -> {
            if (origin.equals(config.self())) {
                for (ServerId t : config.others()) {
                    if (!numbers.get(id).containsKey(t)) {
                        out.add(new ServerEffect.Send(new EoMessage.Replica(config.self(), t, k.get(id))));
                    }
                }
            } else {
                out.add(ack(id));
            }
        });
        return out;
    }

    /** The sync handler (App. A.4): merge the sender's K and D, reply with ours after the merge. */
    @Override
    public ServerStep handleSync(EoMessage.SyncRequest m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.checkAll("k", m.k());
        limits.checkAll("d", m.d());
        limits.checkAll("removed", m.removed());
        merge(m.from(), m.k(), m.d(), m.seen());
        logSync("HandleSync", m.from(), m.k(), m.d(), m.seen());
        return new ServerStep("syncReplied", List.of(record(), new ServerEffect.Send(new EoMessage.SyncReply(
                config.self(), m.from(), config.client(), m.round(), new TreeSet<>(k.keySet()), d, new TreeSet<>(),
                seen))));
    }

    /** A sync reply (App. A.4 ServerSynch): merge as the handler does. */
    @Override
    public ServerStep receiveSyncReply(EoMessage.SyncReply m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.checkAll("k", m.k());
        limits.checkAll("d", m.d());
        limits.checkAll("removed", m.removed());
        config.checkReplyRound(m.round(), round);
        merge(m.from(), m.k(), m.d(), m.seen());
        logSync("ReceiveSyncReply", m.from(), m.k(), m.d(), m.seen());
        return new ServerStep("syncMerged", List.of(record()));
    }

    /**
     * App. A.4's rules: "P = K - Ks: other server has purged these" leave K and D; ids of theirs we
     * no longer hold ("we have purged these") are ignored; the rest of their D joins ours. A note
     * is taken as purged there only if it is in our D: an undelivered note cannot have been purged
     * anywhere, so its absence there means its replica has not arrived yet (notes Z1, M3-f). And
     * only if the snapshot could have known it: its number here is at most the snapshot's
     * {@code seen} (a snapshot built before the note existed says nothing of it; see the class doc).
     */
    private void merge(ServerId from, Set<NoteId> theirK, Set<NoteId> theirD, long theirSeen) {
        List<NoteId> purged = new ArrayList<>();
        for (NoteId i : d) { // only notes of D qualify, so D (a subset of K) is the set to scan
            if (!theirK.contains(i) && (!watermark || within(i, from, theirSeen))) {
                purged.add(i);
            }
        }
        purged.forEach(this::forget);
        for (NoteId i : theirD) {
            if (k.containsKey(i)) {
                addD(i);
            }
        }
        known.put(from, new TreeSet<>(theirD));
        confirmedAt.keySet().retainAll(d);
        long now = clock.now();
        for (NoteId i : d) {
            if (inEveryD(i)) {
                confirmedAt.putIfAbsent(i, now);
            }
        }
    }

    /**
     * Whether a snapshot of {@code from}'s K with watermark {@code theirSeen} could have known note
     * i: {@code from}'s own number for i is at most the watermark. That number comes from the
     * replication round (unknown until the commit arrives: then the snapshot vouches for nothing);
     * without the round, or for a note that predates it, it is taken to be ours (atomic
     * replication numbers every note alike everywhere, notes Z1).
     */
    private boolean within(NoteId i, ServerId from, long theirSeen) {
        Long theirs = replicationRound && numbers.containsKey(i) ? numbers.get(i).get(from) : entered.get(i);
        return theirs != null && theirs <= theirSeen;
    }

    private boolean inEveryD(NoteId i) {
        if (!d.contains(i)) {
            return false;
        }
        for (ServerId t : config.others()) {
            SortedSet<NoteId> theirs = known.get(t);
            if (theirs == null || !theirs.contains(i)) {
                return false;
            }
        }
        return true;
    }

    /** The spec's {@code Authorize(s, i)} for the first note that may be purged, if any. */
    @Override
    public ServerStep authorize() {
        for (NoteId i : confirmedAt.keySet()) {
            ServerStep step = authorize(i);
            if (!step.outcome().equals("refused")) {
                return step;
            }
        }
        return ServerStep.of("none");
    }

    /**
     * The spec's {@code Authorize(s, i)}: send the client "Please purge i", if i is in our D and
     * in every other server's D as they reported it, and T_e has passed since we first saw that,
     * so no copy of note i that any server sent before it knew can still be in the network (L131,
     * Z4). Otherwise refused. The message reaches the client only while it is connected.
     */
    public ServerStep authorize(NoteId i) {
        Long since = confirmedAt.get(i);
        if (since == null || !inEveryD(i) || since + config.te() > clock.now()) {
            return ServerStep.of("refused");
        }
        logNote("Authorize", i);
        return new ServerStep("authorized", List.of(new ServerEffect.Send(
                new EoMessage.PurgeRequest(config.self(), config.client(), i))));
    }

    /**
     * The spec's {@code ReceivePurgeAck(s, i)}: the client dropped i from R, so i leaves K and D
     * here (App. A.4: only after "Please purge i" succeeded; the others follow by K-difference).
     */
    public ServerStep receivePurgeAck(EoMessage.PurgeAck m) {
        config.checkToSelf(m.to());
        config.checkClient("from", m.from());
        limits.check("id", m.id());
        if (!k.containsKey(m.id())) {
            return ServerStep.of("ignored");
        }
        logNote("ReceivePurgeAck", m.id());
        forget(m.id());
        confirmedAt.remove(m.id());
        return new ServerStep("purged", List.of(record()));
    }

    /**
     * K - D, of the notes whose replication round is complete (no note is offered before):
     * {@link #ready}, kept as K, D and origins change, read-only (no copy of K per step).
     */
    private SortedSet<NoteId> undelivered() {
        return java.util.Collections.unmodifiableSortedSet(ready);
    }

    /** The step's record: the operations made since the last one (the state itself is not copied). */
    private ServerEffect record() {
        return ops.take();
    }

    @Override
    public ServerDurableState durable() {
        return new ServerDurableState(k, d, 0, new TreeSet<>(), round, new TreeMap<>(), new TreeMap<>(), entered,
                seen, new TreeMap<>(numbers), origins);
    }

    public boolean syncPending() {
        return syncPending;
    }

    /** {@code sess[s].active}. */
    @Override
    public boolean active() {
        return active;
    }

    /** {@code sess[s].pending}. */
    @Override
    public Optional<NoteId> pending() {
        return Optional.ofNullable(pending);
    }

    /** S3Printed's {@code U[s]} (always empty for the corrected variant). */
    public SortedSet<NoteId> u() {
        return new TreeSet<>(u);
    }

    /** {@code known[s]}: peer -> the D it last reported (peers not heard from since a crash: absent). */
    public SortedMap<ServerId, SortedSet<NoteId>> known() {
        TreeMap<ServerId, SortedSet<NoteId>> copy = new TreeMap<>();
        known.forEach((t, ids) -> copy.put(t, new TreeSet<>(ids)));
        return copy;
    }

    public S3Variant variant() {
        return variant;
    }

    public ServerConfig config() {
        return config;
    }
}
