package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
 * <p>Sans-IO and not thread-safe; {@code ConcurrentS3Server} shares one between a session thread
 * and sync threads.
 */
public final class S3Server {

    private final ServerConfig config;
    private final EoClock clock;
    private final S3Variant variant;
    private final Limits limits = Limits.global();

    // Durable.
    /** K. Invariant: contains every id of D. */
    private final TreeMap<NoteId, Note> k;
    private final TreeSet<NoteId> d;
    private long round;

    // Volatile (notes Z13): sessions and sync rounds die with the server.
    private boolean sessionOpen;
    private boolean aborted;
    /** The session's U: the notes it has yet to try (App. A.4 snapshot; re-checked unless PRINTED). */
    private final TreeSet<NoteId> u = new TreeSet<>();
    private NoteId pending;
    private NoteId purgePending;
    /** A Deliver succeeded since the last round started (App. A.4 forks ServerSynch then). */
    private boolean syncPending;
    /** The peers that answered the current round, with the D each reported. */
    private final TreeMap<ServerId, SortedSet<NoteId>> replied = new TreeMap<>();
    /** Notes seen in every D in a complete round -> when; purge may be authorized T_e later. */
    private final TreeMap<NoteId, Long> confirmedAt = new TreeMap<>();

    public S3Server(ServerConfig config, EoClock clock, S3Variant variant, ServerDurableState durable) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.variant = Objects.requireNonNull(variant, "variant");
        limits.checkAll("stored k", durable.k().keySet());
        this.k = new TreeMap<>(durable.k());
        this.d = new TreeSet<>(durable.d());
        this.round = durable.round();
    }

    public static S3Server fresh(ServerConfig config, EoClock clock) {
        return new S3Server(config, clock, S3Variant.CORRECTED, ServerDurableState.initial());
    }

    /** The spec's {@code CreateNote(n)} at its origin: into K here and, by replicas, everywhere. */
    public ServerStep createNote(NoteId id, String body) {
        limits.check("id", id);
        if (k.containsKey(id)) {
            throw new IllegalArgumentException("note " + id + " already exists on " + config.self()
                    + "; Strategy 3 needs globally unique ids (L127)");
        }
        Note note = new Note(id, config.client(), body);
        k.put(id, note);
        List<ServerEffect> effects = new ArrayList<>();
        effects.add(record());
        for (ServerId other : config.others()) {
            effects.add(new ServerEffect.Send(new EoMessage.Replica(config.self(), other, note)));
        }
        return new ServerStep("created", effects);
    }

    public ServerStep receiveReplica(EoMessage.Replica m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("note.client", m.note().client());
        limits.check("note.id", m.note().id());
        if (k.containsKey(m.note().id())) {
            return ServerStep.of("ignored");
        }
        k.put(m.note().id(), m.note());
        return new ServerStep("stored", List.of(record()));
    }

    /** The spec's {@code StartSession(s)}: HandleClient begins; {@code U = K - D} (App. A.4). */
    public ServerStep startSession() {
        sessionOpen = true;
        aborted = false;
        pending = null;
        purgePending = null;
        u.clear();
        u.addAll(undelivered());
        return ServerStep.of("started");
    }

    /** The spec's {@code SendNote(s, i)}: Deliver the next note of U still in {@code K - D}. */
    public ServerStep sendNote() {
        if (!sessionOpen || aborted) {
            return ServerStep.of("noSession");
        }
        if (pending != null || purgePending != null) {
            return ServerStep.of("busy");
        }
        if (variant == S3Variant.CORRECTED) {
            u.retainAll(undelivered());
        }
        if (u.isEmpty()) {
            return ServerStep.of("idle");
        }
        NoteId i = u.pollFirst();
        pending = i;
        Note note = k.get(i);
        if (note == null) {
            // Only the printed variant gets here: the note was purged after the snapshot. Its body
            // is gone, but the id (all the client judges) is not; deliver it as the paper's loop would.
            note = new Note(i, config.client(), "");
        }
        return new ServerStep("sent", List.of(new ServerEffect.Send(
                new EoMessage.NoteDelivery(config.self(), config.client(), note))));
    }

    /** The spec's {@code AckArrive(s, i)}: Deliver succeeded; i into D (App. A.4), sync wanted. */
    public ServerStep ackArrive(EoMessage.NoteAck m) {
        config.checkToSelf(m.to());
        config.checkClient("from", m.from());
        limits.check("id", m.id());
        if (pending == null || !pending.equals(m.id())) {
            return ServerStep.of("ignored");
        }
        pending = null;
        syncPending = true;
        if (!k.containsKey(m.id()) || d.contains(m.id())) {
            return ServerStep.of("delivered");
        }
        d.add(m.id());
        return new ServerStep("delivered", List.of(record()));
    }

    /** The spec's {@code Timeout(s)}: a Deliver failed; the session aborts (App. A.4 {@code abort}). */
    public ServerStep timeout() {
        if (pending == null && purgePending == null) {
            return ServerStep.of("ignored");
        }
        pending = null;
        purgePending = null;
        aborted = true;
        return ServerStep.of("aborted");
    }

    public ServerStep endSession() {
        sessionOpen = false;
        aborted = false;
        pending = null;
        purgePending = null;
        u.clear();
        return ServerStep.of("ended");
    }

    /** The spec's {@code ServerCrash(s)}: sessions and sync rounds are lost, K and D are not. */
    public void crash() {
        endSession();
        syncPending = false;
        replied.clear();
        confirmedAt.clear();
    }

    /** The spec's {@code SSStart(s)}: send "Server synchronization: K, D" to every other server. */
    public ServerStep startSync() {
        round++;
        syncPending = false;
        replied.clear();
        List<ServerEffect> effects = new ArrayList<>();
        effects.add(record());
        for (ServerId other : config.others()) {
            effects.add(new ServerEffect.Send(new EoMessage.SyncRequest(config.self(), other, config.client(), round,
                    new TreeSet<>(k.keySet()), d, new TreeSet<>())));
        }
        return new ServerStep("syncStarted", effects);
    }

    /** The spec's {@code SyncHandle(t)}: merge the sender's K and D, reply with ours after the merge. */
    public ServerStep handleSync(EoMessage.SyncRequest m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.checkAll("k", m.k());
        limits.checkAll("d", m.d());
        merge(m.k(), m.d());
        return new ServerStep("syncReplied", List.of(record(), new ServerEffect.Send(new EoMessage.SyncReply(
                config.self(), m.from(), config.client(), m.round(), new TreeSet<>(k.keySet()), d, new TreeSet<>()))));
    }

    /**
     * The spec's {@code SSRecvReply(s, t)}: merge as the handler does and note t's D; when every
     * other server has answered this round, the ids in every D are confirmed now.
     */
    public ServerStep receiveSyncReply(EoMessage.SyncReply m) {
        config.checkToSelf(m.to());
        config.checkFromPeer("from", m.from());
        config.checkClient("client", m.client());
        limits.checkAll("k", m.k());
        limits.checkAll("d", m.d());
        if (m.round() != round) {
            return ServerStep.of("stale");
        }
        merge(m.k(), m.d());
        replied.put(m.from(), m.d());
        if (replied.keySet().equals(config.others())) {
            long now = clock.now();
            for (NoteId i : d) {
                if (replied.values().stream().allMatch(theirs -> theirs.contains(i))) {
                    confirmedAt.putIfAbsent(i, now);
                }
            }
        }
        return new ServerStep("syncMerged", List.of(record()));
    }

    /**
     * App. A.4's rules: "P = K - Ks: other server has purged these" leave K and D; ids of theirs we
     * no longer hold ("we have purged these") are ignored; the rest of their D joins ours. A note
     * is taken as purged there only if it is in our D: an undelivered note cannot have been purged
     * anywhere, so its absence there means its replica has not arrived yet (notes Z1, M3-f).
     */
    private void merge(Set<NoteId> theirK, Set<NoteId> theirD) {
        k.keySet().removeIf(i -> d.contains(i) && !theirK.contains(i));
        d.retainAll(k.keySet());
        for (NoteId i : theirD) {
            if (k.containsKey(i)) {
                d.add(i);
            }
        }
        confirmedAt.keySet().retainAll(d);
    }

    /**
     * The spec's {@code SSAuthorize(s, i)}: during a session, send "Please purge i" for a note
     * confirmed in every D at least T_e ago and still in K here.
     */
    public ServerStep authorizePurge() {
        if (!sessionOpen || aborted || pending != null || purgePending != null) {
            return ServerStep.of("busy");
        }
        long now = clock.now();
        for (Map.Entry<NoteId, Long> e : confirmedAt.entrySet()) {
            if (e.getValue() + config.te() <= now && d.contains(e.getKey())) {
                purgePending = e.getKey();
                return new ServerStep("authorized", List.of(new ServerEffect.Send(
                        new EoMessage.PurgeRequest(config.self(), config.client(), e.getKey()))));
            }
        }
        return ServerStep.of("none");
    }

    /** The spec's {@code PurgeAck(s, i)}: the client dropped i from R; i leaves K and D here. */
    public ServerStep purgeAck(EoMessage.PurgeAck m) {
        config.checkToSelf(m.to());
        config.checkClient("from", m.from());
        limits.check("id", m.id());
        if (purgePending == null || !purgePending.equals(m.id())) {
            return ServerStep.of("ignored");
        }
        purgePending = null;
        k.remove(m.id());
        d.remove(m.id());
        confirmedAt.remove(m.id());
        return new ServerStep("purged", List.of(record()));
    }

    private SortedSet<NoteId> undelivered() {
        TreeSet<NoteId> kd = new TreeSet<>(k.keySet());
        kd.removeAll(d);
        return kd;
    }

    private ServerEffect record() {
        return new ServerEffect.Record(durable());
    }

    public ServerDurableState durable() {
        return new ServerDurableState(k, d, 0, new TreeSet<>(), round, new TreeMap<>(), new TreeMap<>());
    }

    public boolean syncPending() {
        return syncPending;
    }

    public boolean sessionOpen() {
        return sessionOpen;
    }

    public Optional<NoteId> pending() {
        return Optional.ofNullable(pending);
    }

    public SortedSet<NoteId> u() {
        return new TreeSet<>(u);
    }

    public ServerConfig config() {
        return config;
    }
}
