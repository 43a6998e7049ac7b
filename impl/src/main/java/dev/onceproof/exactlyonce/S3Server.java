package dev.onceproof.exactlyonce;

import dev.onceproof.steplog.StepLog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
    /**
     * K, with D, the entry numbers, the replication round's numbers and origins, and (volatile)
     * when each note's round completed here and which notes a session may offer: one entry per
     * note ({@link S3Notes}). Invariants: D is a subset of K; a note has an origin only while its
     * numbers do not name every server; the offer set is {@code {i in K : i not in D, no origin}}.
     */
    private final S3Notes k = new S3Notes();
    private long round;
    /** How many notes have ever entered K here (createNote, receiveReplica); never decreases. */
    private long seen;
    /** Every write to a durable field above goes with its {@link ServerOp} here. */
    private final OpsRecorder ops = new OpsRecorder();

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
     * itself sent, so "i in known[t]" means t really had i in D (and D loses i only with K). Hash
     * sets: {@link #inEveryD} asks them once per note of D at every sync.
     */
    private final Map<ServerId, Set<NoteId>> known = new HashMap<>();
    /**
     * When i was first seen in our D and every known D: purge may be authorized T_e later (Z4).
     * Sorted: {@link #authorize()} takes the first in id order. Invariant, between steps: keys in D.
     */
    private final TreeMap<NoteId, Long> confirmedAt = new TreeMap<>();
    /** False only through the {@link #withoutReconfirm} seam. */
    private boolean reconfirming = true;

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
        this.round = durable.round();
        this.seen = durable.seen();
        for (Note note : durable.k().values()) { // in id order: a state built without numbers is numbered so
            Long number = durable.entered().get(note.id());
            S3Notes.Entry e = k.add(note, number != null ? number : ++seen);
            e.delivered = durable.d().contains(note.id());
            SortedMap<ServerId, Long> nums = durable.numbers().get(note.id());
            e.numbers = nums == null ? null : new TreeMap<>(nums);
            e.origin = durable.origins().get(note.id());
            k.refresh(e);
        }
        reconfirm();
    }

    /**
     * After a restart or a crash {@code confirmedAt} is empty: a note of D that is in every D as we
     * now know it counts as confirmed from now, so its purge may be authorized T_e later (counting
     * from now is safe: every copy sent before is older). With peers nothing qualifies (known is
     * empty until their next sync, whose merge confirms as before); a lone server has no sync to wait
     * for, and without this never authorized the purge of a note it had delivered before a crash,
     * so the client's R filled with such ids and every later note was refused (found by the server
     * SIGKILL run, issue 21). ExactlyOnceS3Timed's Confirm does the same at ServerCrash
     * (ReconfirmedAt); MutS3TimedReconfirmEarly, dated T_e earlier, is refuted by TLC.
     */
    private void reconfirm() {
        if (!reconfirming) {
            return;
        }
        for (S3Notes.Entry e : k.sorted(e -> e.delivered)) {
            if (inEveryD(e)) {
                confirmedAt.putIfAbsent(e.id(), clock.now());
            }
        }
    }

    /**
     * Mutation seam, tests only: restarts do not reconfirm (the core before the server SIGKILL run's
     * finding); what this construction reconfirmed is dropped. Returns this.
     */
    S3Server withoutReconfirm() {
        reconfirming = false;
        confirmedAt.clear();
        return this;
    }

    /**
     * Mutation seam, tests only: operations of {@code kind} are applied to the core but left out of
     * its records, so the store's state drifts from the core's. Returns this.
     */
    S3Server withoutJournaling(Class<? extends ServerOp> kind) {
        ops.drop(kind);
        return this;
    }

    private void setNumbers(S3Notes.Entry e, TreeMap<ServerId, Long> nums) {
        e.numbers = nums;
        ops.add(new ServerOp.SetNumbers(e.id(), nums));
    }

    /** Only for a note just entered (no note regains an origin), before its first {@link S3Notes#refresh}. */
    private void setOrigin(S3Notes.Entry e, ServerId origin) {
        e.origin = origin;
        ops.add(new ServerOp.Origin(e.id(), origin));
    }

    /** The round of e is complete here: it leaves origins (and may now be offered, after those completed before). */
    private void completeRound(S3Notes.Entry e) {
        if (e.origin != null) {
            e.origin = null;
            ops.add(new ServerOp.Complete(e.id()));
        }
        k.completed(e);
    }

    private void addD(S3Notes.Entry e) {
        if (!e.delivered) {
            e.delivered = true;
            ops.add(new ServerOp.AddD(e.id()));
            k.refresh(e);
        }
    }

    /** e leaves K and everything kept per note of K (a purge, or a sync's K-difference). */
    private void forget(S3Notes.Entry e) {
        k.remove(e);
        ops.add(new ServerOp.Forget(e.id()));
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
                        .field("seen", theirSeen).strings("K", texts(k.ids())).strings("D", texts(k.d())).end();
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
        if (k.contains(id)) {
            throw new IllegalArgumentException("note " + id + " already exists on " + config.self()
                    + "; Strategy 3 needs globally unique ids (L127)");
        }
        Note note = new Note(id, config.client(), body);
        S3Notes.Entry e = enter(note);
        if (replicationRound && !config.others().isEmpty()) {
            setNumbers(e, own(e));
            setOrigin(e, config.self());
        }
        k.refresh(e);
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
        S3Notes.Entry held = k.get(id);
        if (held != null) {
            return logRound("ReceiveReplica", replicationRound && m.from().equals(held.origin)
                    ? new ServerStep("acknowledged", List.of(ack(held))) : ServerStep.of("ignored"), m.from(), id,
                    held.entered);
        }
        S3Notes.Entry e = enter(m.note());
        if (!replicationRound) {
            k.refresh(e);
            return logRound("ReceiveReplica", new ServerStep("stored", List.of(record())), m.from(), id, e.entered);
        }
        setNumbers(e, own(e));
        setOrigin(e, m.from());
        return logRound("ReceiveReplica", new ServerStep("stored", List.of(record(), ack(e))), m.from(), id,
                e.entered);
    }

    /** The round's numbers of a note just stored here: ours only. */
    private TreeMap<ServerId, Long> own(S3Notes.Entry e) {
        TreeMap<ServerId, Long> nums = new TreeMap<>();
        nums.put(config.self(), e.entered);
        return nums;
    }

    private ServerEffect ack(S3Notes.Entry e) {
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
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.check("id", m.id());
        NoteId id = m.id();
        return logRound("ReceiveReplicaAck", replicaAck(m, id), m.from(), id, m.number());
    }

    private ServerStep replicaAck(EoMessage.ReplicaAck m, NoteId id) {
        S3Notes.Entry e = k.get(id);
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
            ops.add(new ServerOp.Number(id, m.from(), m.number()));
            if (nums.size() < config.servers().size()) {
                return new ServerStep("acknowledged", List.of(record()));
            }
            completeRound(e);
            List<ServerEffect> effects = new ArrayList<>();
            effects.add(record());
            for (ServerId t : config.others()) {
                effects.add(commitTo(t, e));
            }
            return new ServerStep("committed", effects);
        }
        return nums.size() == config.servers().size() && m.number() == nums.get(m.from())
                ? new ServerStep("recommitted", List.of(commitTo(m.from(), e))) : ServerStep.of("ignored");
    }

    private ServerEffect commitTo(ServerId t, S3Notes.Entry e) {
        return new ServerEffect.Send(new EoMessage.ReplicaCommit(config.self(), t, config.client(), e.id(),
                e.numbers));
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
        S3Notes.Entry e = k.get(id);
        if (!replicationRound || e == null || complete(e)) {
            return logRound("ReceiveCommit", ServerStep.of("ignored"), m.from(), id, 0);
        }
        if (!m.numbers().keySet().equals(config.servers())) {
            throw new InvalidMessageException("numbers", "names " + m.numbers().keySet() + ", not the servers "
                    + config.servers());
        }
        if (m.numbers().get(config.self()) != e.entered) {
            throw new InvalidMessageException("numbers[" + config.self() + "]", m.numbers().get(config.self())
                    + " for note " + id + ", which is number " + e.entered + " here");
        }
        setNumbers(e, new TreeMap<>(m.numbers()));
        completeRound(e);
        return logRound("ReceiveCommit", new ServerStep("committed", List.of(record())), m.from(), id, 0);
    }

    /** Whether e's replication round is complete here (or e predates the round). */
    private boolean complete(S3Notes.Entry e) {
        return e.complete(config.servers().size());
    }

    /** Note enters K; the caller sets its round, then refreshes it (so it is offered at once only without a round). */
    private S3Notes.Entry enter(Note note) {
        S3Notes.Entry e = k.add(note, ++seen);
        ops.add(new ServerOp.Enter(note, seen));
        return e;
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
            u.addAll(k.readyIds());
        }
        return ServerStep.of("started");
    }

    /**
     * The spec's {@code SendNote(s, i)} with the loop's own choice of i: the first of U as printed;
     * corrected, the note of K - D whose round completed here earliest since the last crash (those
     * that completed before it, or predate rounds, first, lowest id first), so the client meets
     * notes in the order they became deliverable, as under atomic replication it meets them in
     * creation order: a note the client took whose acknowledgement was lost is offered again before
     * notes that became deliverable after it (else, with R full, the client would refuse those for
     * ever and the lost acknowledgement never be repaired).
     */
    @Override
    public ServerStep sendNote() {
        NoteId first = variant == S3Variant.PRINTED ? (u.isEmpty() ? null : u.first())
                : k.firstReady() == null ? null : k.firstReady().id();
        if (first == null || !active || pending != null) {
            return ServerStep.of(active && pending == null ? "idle" : "busy");
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
        boolean eligible = variant == S3Variant.PRINTED ? u.contains(i) : k.isReady(i);
        if (!active || pending != null || !eligible) {
            return ServerStep.of("refused");
        }
        u.remove(i);
        pending = i;
        logNote("SendNote", i);
        S3Notes.Entry e = k.get(i);
        Note note = e == null ? null : e.note;
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
        S3Notes.Entry e = k.get(m.id());
        if (e == null || e.delivered) {
            logAck(m.id());
            return ServerStep.of("delivered");
        }
        addD(e);
        if (inEveryD(e)) {
            confirmedAt.putIfAbsent(m.id(), clock.now());
        }
        logAck(m.id());
        return new ServerStep("delivered", List.of(record()));
    }

    private void logAck(NoteId id) {
        if (log.on()) {
            synchronized (log) {
                line("ReceiveAck").field("note", id.text()).strings("D", texts(k.d())).end();
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
        k.forgetCompletionOrder();
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
                line("StartSync").strings("k", texts(k.ids())).strings("d", texts(k.d())).field("seen", seen).end();
            }
        }
        List<ServerEffect> effects = new ArrayList<>();
        effects.add(record());
        TreeSet<NoteId> ids = k.ids();
        TreeSet<NoteId> d = k.d();
        for (ServerId other : config.others()) {
            effects.add(new ServerEffect.Send(new EoMessage.SyncRequest(config.self(), other, config.client(), round,
                    ids, d, new TreeSet<>(), seen)));
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
        for (S3Notes.Entry e : k.sorted(e -> e.origin != null)) {
            if (e.origin.equals(config.self())) {
                for (ServerId t : config.others()) {
                    if (!e.numbers.containsKey(t)) {
                        out.add(new ServerEffect.Send(new EoMessage.Replica(config.self(), t, e.note)));
                    }
                }
            } else {
                out.add(ack(e));
            }
        }
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
                config.self(), m.from(), config.client(), m.round(), k.ids(), k.d(), new TreeSet<>(),
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
        // Only notes of D qualify; forgotten in id order, as their records list them.
        k.sorted(e -> e.delivered && !theirK.contains(e.id()) && (!watermark || within(e, from, theirSeen)))
                .forEach(this::forget);
        for (NoteId i : theirD) {
            S3Notes.Entry e = k.get(i);
            if (e != null) {
                addD(e);
            }
        }
        known.put(from, new HashSet<>(theirD));
        confirmedAt.keySet().removeIf(i -> !inD(i));
        long now = clock.now();
        for (S3Notes.Entry e : k.entries()) {
            if (inEveryD(e)) {
                confirmedAt.putIfAbsent(e.id(), now);
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
    private boolean within(S3Notes.Entry e, ServerId from, long theirSeen) {
        Long theirs = replicationRound && e.numbers != null ? e.numbers.get(from) : Long.valueOf(e.entered);
        return theirs != null && theirs <= theirSeen;
    }

    private boolean inD(NoteId i) {
        S3Notes.Entry e = k.get(i);
        return e != null && e.delivered;
    }

    private boolean inEveryD(S3Notes.Entry e) {
        if (!e.delivered) {
            return false;
        }
        for (ServerId t : config.others()) {
            Set<NoteId> theirs = known.get(t);
            if (theirs == null || !theirs.contains(e.id())) {
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
        S3Notes.Entry e = k.get(i);
        if (since == null || e == null || !inEveryD(e) || since + config.te() > clock.now()) {
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
        S3Notes.Entry e = k.get(m.id());
        if (e == null) {
            return ServerStep.of("ignored");
        }
        logNote("ReceivePurgeAck", m.id());
        forget(e);
        confirmedAt.remove(m.id());
        return new ServerStep("purged", List.of(record()));
    }

    /** The step's record: the operations made since the last one (the state itself is not copied). */
    private ServerEffect record() {
        return ops.take();
    }

    @Override
    public ServerDurableState durable() {
        NoteEntries.Sorted s = k.sortedFields();
        return new ServerDurableState(s.k(), s.d(), 0, new TreeSet<>(), round, new TreeMap<>(), new TreeMap<>(),
                s.entered(), seen, s.numbers(), s.origins());
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
