package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.function.Supplier;

/**
 * The Strategy 4-6 server state one server keeps for one client, shared by the client's session
 * thread (HandleClient of App. A.6-A.8: the gather, then the aDeliver loop) and the threads that
 * handle what other servers send meanwhile (their "Request for list D", periodic or pushed syncs)
 * and send this server's own syncs. Every step runs the sequential {@link GatherServer} under one
 * lock and makes the step's durable record before anything leaves (ordering rule of
 * {@link ServerStep}): the record's operations are appended to the journal under the lock (so the
 * journal's order is the core's), and committed after the lock is released, before the step's
 * sends or its aDeliver call are carried out. No lock is held across the fsync: other steps run
 * meanwhile, and one fsync commits every step appended so far (group commit). A step commits
 * everything appended up to its own record, or up to the last record when it has none (a D reply
 * carries changes of earlier steps), so nothing leaves before the state it reflects is durable.
 *
 * <p>The aDeliver call itself (a network hand-over to the client that may take up to its timeout)
 * runs outside the lock, so incoming syncs are not held up by a slow client. What keeps that safe
 * is the core's aDeliver log (notes Z9): the attempt is logged under the lock <em>before</em> the
 * call, and while an outcome is unknown the core defers {@code replyD} and syncs (a D without the
 * note would let a peer deliver it again). This class turns "deferred" into waiting: a D request or
 * a sync waits until the call's outcome is recorded ({@link #aDeliverNext} signals), which bounds
 * the wait by the primitive's timeout (L199); after a crash it lasts until the runtime reports the
 * unresolved outcomes from the primitive's permanent log (L193, {@link #aDeliverOk} /
 * {@link #aDeliverErr}).
 *
 * <p>Two seams make the Lincheck controls. {@link AttemptLog} moves the log one step later, after
 * the call: then a peer's gather can read this server's D while the client is processing the note,
 * which is mutant M4-d of the notes (the aDeliver outcome and the D update split). {@link Deferral}
 * keeps the log but answers a deferred reply or sync at once, with the D of that moment.
 */
public final class ConcurrentGatherServer implements EoServer {

    /**
     * The atomic delivery primitive {@code aDeliver(c, note)} (3.3.1): true when the client
     * processed the note exactly once, false when it did not process it at all (L191). Called
     * outside the server's lock; it may block up to its timeout.
     */
    @FunctionalInterface
    public interface ADeliverPrimitive {
        boolean call(long session, Note note);
    }

    /**
     * Where the durable records go ({@link dev.onceproof.exactlyonce.store.GatherServerStore} is
     * one): {@link #append} and {@link #claimCheckpoint} run under the core's lock and never wait
     * for the disk; {@link #commit} and {@link #checkpoint} run outside it.
     */
    public interface Durable {
        /** Nothing is kept (tests of the locking alone). */
        Durable NONE = new Durable() {
            @Override
            public long append(ServerEffect.RecordGather record) {
                return 0;
            }

            @Override
            public long lastSeq() {
                return 0;
            }

            @Override
            public void commit(long seq) {
            }
        };

        /** Queues a step's operations as one record; returns its sequence number. */
        long append(ServerEffect.RecordGather record);

        /** The sequence number of the last record appended. */
        long lastSeq();

        /** Returns once every record up to {@code seq} is durable. */
        void commit(long seq);

        /** Whether to checkpoint the core's state after record {@code seq} now (a claim; see the store). */
        default boolean claimCheckpoint(long seq) {
            return false;
        }

        /** Writes the checkpoint claimed through {@code seq}. */
        default void checkpoint(GatherDurableState state, long seq) {
        }
    }

    /**
     * Mutation seam: when the aDeliver attempt enters the core's log. {@link #BEFORE_CALL} is the
     * safeguard (the core's {@code aDeliver} step, logged and durable, then the call).
     * {@link #AFTER_CALL} picks the note the same way but calls first and logs the attempt and its
     * outcome together afterwards: between the client's processing and the log there is no trace
     * of the delivery, so {@code replyD} answers instead of waiting. Lincheck control only.
     */
    public enum AttemptLog {
        BEFORE_CALL,
        AFTER_CALL
    }

    /**
     * Mutation seam: what a D reply or a sync does while an aDeliver outcome is unknown here.
     * {@link #WAIT} is the safeguard (the core defers it; this class waits for the outcome).
     * {@link #ANSWER_AT_ONCE} sends it anyway, with the D (and, for a sync, the K) of that moment
     * and the clock now, as a runtime that took "deferred" for "nothing to wait for" would: a
     * peer's gather, or a peer judging our sync fresh (Strategies 5 and 6), misses the note the
     * client may be processing. Lincheck control only.
     */
    public enum Deferral {
        WAIT,
        ANSWER_AT_ONCE
    }

    /**
     * The monitor every step runs under; notified whenever an aDeliver outcome is recorded, so
     * deferred replies and syncs try again. (A monitor rather than a ReentrantLock with a
     * Condition: Lincheck 2.39's model checking hung on Condition.await in this class.)
     */
    private final Object lock = new Object();
    private final GatherServer core;
    private final Durable store;
    private final ADeliverPrimitive primitive;
    private final AttemptLog attemptLog;
    private final Deferral deferral;

    public ConcurrentGatherServer(GatherServer core, Durable store) {
        this(core, store, AttemptLog.BEFORE_CALL);
    }

    /** With the attempt-log seam; see {@link AttemptLog} (the racy one is a test control only). */
    public ConcurrentGatherServer(GatherServer core, Durable store, AttemptLog attemptLog) {
        this(core, store, attemptLog, Deferral.WAIT);
    }

    /** With both seams; see {@link AttemptLog} and {@link Deferral} (the racy ones are test controls only). */
    public ConcurrentGatherServer(GatherServer core, Durable store, AttemptLog attemptLog, Deferral deferral) {
        this(core, store, null, attemptLog, deferral);
    }

    /**
     * With the aDeliver primitive the step interface's {@link #deliverNext} calls (null: it refuses;
     * use {@link #aDeliverNext(ADeliverPrimitive)}).
     */
    public ConcurrentGatherServer(GatherServer core, Durable store, ADeliverPrimitive primitive, AttemptLog attemptLog,
            Deferral deferral) {
        this.core = Objects.requireNonNull(core, "core");
        this.store = Objects.requireNonNull(store, "store");
        this.primitive = primitive;
        this.attemptLog = Objects.requireNonNull(attemptLog, "attemptLog");
        this.deferral = Objects.requireNonNull(deferral, "deferral");
    }

    // ---- the step interface (EoServer) ---------------------------------------------------------

    @Override
    public Strategy strategy() {
        return core.strategy();
    }

    @Override
    public ServerStep createNote(Optional<NoteId> id, String body) {
        return locked(() -> core.createNote(id, body));
    }

    /**
     * A message, as the core's {@link GatherServer#receive} routes it, under the lock; a request for
     * D waits like {@link #replyD}. An interrupted wait sends nothing: outcome "interrupted", the
     * thread's interrupt flag set again.
     */
    @Override
    public ServerStep receive(EoMessage m) {
        if (m instanceof EoMessage.DRequest q) {
            return uninterrupted(() -> replyD(q));
        }
        return locked(() -> core.receive(m));
    }

    /** {@link #aDeliverNext(ADeliverPrimitive)} with the primitive this server was built with. */
    @Override
    public ServerStep deliverNext() {
        if (primitive == null) {
            throw new IllegalStateException("deliverNext of the step interface needs the aDeliver primitive: build "
                    + "this server with one, or call aDeliverNext(ADeliverPrimitive)");
        }
        return aDeliverNext(primitive);
    }

    /** {@link #gatherFail}. */
    @Override
    public ServerStep timeout() {
        return gatherFail();
    }

    /**
     * The strategy's sync, waiting like {@link #replyD}: Strategy 4 to every peer ({@link #syncAll}),
     * 5 {@link #periodicSync}, 6 {@link #pushSync}. Interrupted: as {@link #receive}.
     */
    @Override
    public ServerStep sync() {
        return uninterrupted(() -> switch (core.strategy()) {
            case S5 -> periodicSync();
            case S6 -> pushSync();
            default -> syncAll();
        });
    }

    @Override
    public ServerStep authorize() {
        return core.authorize();
    }

    @Override
    public Optional<NoteId> pending() {
        synchronized (lock) {
            return core.pending();
        }
    }

    private interface Waiting {
        ServerStep run() throws InterruptedException;
    }

    private static ServerStep uninterrupted(Waiting step) {
        try {
            return step.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ServerStep.of("interrupted");
        }
    }

    // ---- the spec-named steps ----------------------------------------------------------------------

    // ---- the session thread ------------------------------------------------------------------

    /** {@code StartSession(s)} (Strategies 4 and 5; Strategy 6 without an upload: a full pull). */
    @Override
    public ServerStep startSession() {
        return locked(core::startSession);
    }

    /** Strategy 6's {@code StartSession(s)} with the client's history upload. */
    public ServerStep startSession(EoMessage.HistoryUpload upload) {
        if (!(core instanceof S6Server s6)) {
            throw new IllegalStateException("a history upload needs a Strategy 6 server, this is "
                    + core.config().strategy());
        }
        return locked(() -> s6.startSession(upload));
    }

    /** Every {@code ReqD(s, t)} the gather needs; the caller sends them. */
    public ServerStep reqAll() {
        return locked(core::reqAll);
    }

    public ServerStep recvD(EoMessage.DReply reply) {
        return locked(() -> core.recvD(reply));
    }

    public ServerStep gatherFail() {
        return locked(core::gatherFail);
    }

    public ServerStep endGather() {
        return locked(core::endGather);
    }

    @Override
    public ServerStep endSession() {
        return locked(core::endSession);
    }

    /**
     * One turn of HandleClient's delivery loop: pick the next note of K - D, log the attempt, call
     * {@code aDeliver} outside the lock, then record its outcome ({@code ADeliverOK} /
     * {@code ADeliverErr}) and wake whoever waits for it. Returns the outcome step ("delivered",
     * "failed"), or the core's refusal ("idle", "refused") when there was nothing to call.
     */
    public ServerStep aDeliverNext(ADeliverPrimitive client) {
        Objects.requireNonNull(client, "client");
        if (attemptLog == AttemptLog.AFTER_CALL) {
            return aDeliverLoggedAfterCall(client);
        }
        ServerStep calling = locked(core::aDeliverNext);
        Optional<ServerEffect.ADeliver> call = call(calling);
        if (call.isEmpty()) {
            return calling;
        }
        boolean ok = client.call(call.get().session(), call.get().note());
        NoteId i = call.get().note().id();
        long session = call.get().session();
        return ok ? aDeliverOk(session, i) : aDeliverErr(session, i);
    }

    /** The racy control: the note chosen as the core would, called, and only then logged. */
    private ServerStep aDeliverLoggedAfterCall(ADeliverPrimitive client) {
        long session;
        Note note = null;
        synchronized (lock) {
            session = core.session();
            if (core.phase() != GatherServer.Phase.DELIVER || core.pending().isPresent()) {
                return ServerStep.of("refused");
            }
            GatherDurableState durable = core.durable();
            for (NoteId i : durable.k().keySet()) {
                if (!durable.d().contains(i) && !durable.log().containsKey(i)) {
                    note = durable.k().get(i);
                    break;
                }
            }
        }
        if (note == null) {
            return ServerStep.of("idle");
        }
        boolean ok = client.call(session, note);
        Note chosen = note;
        return locked(() -> {
            ServerStep calling = core.aDeliver(session, chosen.id());
            if (call(calling).isEmpty()) {
                return calling;
            }
            ServerStep outcome = ok ? core.aDeliverOk(session, chosen.id()) : core.aDeliverErr(session, chosen.id());
            // Both steps' records, the attempt's first: each carries only its own changes.
            List<ServerEffect> effects = new java.util.ArrayList<>();
            calling.effects().stream().filter(e -> e instanceof ServerEffect.RecordGather).forEach(effects::add);
            effects.addAll(outcome.effects());
            return new ServerStep(outcome.outcome(), effects);
        });
    }

    /** {@code ADeliverOK(s, i)}: also how a runtime reports an outcome read from the primitive's log after a crash. */
    @Override
    public ServerStep aDeliverOk(long session, NoteId i) {
        return lockedSignalling(() -> core.aDeliverOk(session, i));
    }

    /** {@code ADeliverErr(s, i)}. */
    @Override
    public ServerStep aDeliverErr(long session, NoteId i) {
        return lockedSignalling(() -> core.aDeliverErr(session, i));
    }

    // ---- handlers of what other servers send, and this server's syncs ---------------------------

    /**
     * {@code ReplyD(t, s)} at this server: our D and clock. While an aDeliver outcome is unknown
     * here the reply waits for it (the core defers it), so it never omits a note the client may be
     * processing. Interruptible: an interrupted handler sends nothing.
     */
    public ServerStep replyD(EoMessage.DRequest request) throws InterruptedException {
        return lockedWaiting(() -> core.replyD(request), () -> new ServerStep("replied", List.of(
                new ServerEffect.Send(new EoMessage.DReply(core.config().self(), request.from(), core.config().client(),
                        request.session(), core.clock.now(), core.d())))));
    }

    /** A sync of our K, D and clock to peer t; waits like {@link #replyD} while an outcome is unknown. */
    public ServerStep sync(ServerId t) throws InterruptedException {
        return lockedWaiting(() -> core.sync(t), () -> syncsAtOnce(List.of(t)));
    }

    /** A sync of our K, D and clock to every other server; waits like {@link #replyD}. */
    public ServerStep syncAll() throws InterruptedException {
        return lockedWaiting(core::syncAll, () -> syncsAtOnce(core.config().servers().others()));
    }

    /**
     * Strategy 5's {@code PeriodicSync(s)} (every T_u; the runtime's timer asks {@link #syncDue}):
     * waits like {@link #replyD}, so a sync stamped with a send time never omits a note the client
     * may already have processed (a peer would take our D as fresh at that time and skip the pull).
     */
    public ServerStep periodicSync() throws InterruptedException {
        S5Server s5 = strategy(S5Server.class, "a periodic sync");
        return lockedWaiting(s5::periodicSync, () -> syncsAtOnce(core.config().servers().others()));
    }

    /** Strategy 5: whether T_u has passed since the last {@link #periodicSync}. */
    public boolean syncDue() {
        S5Server s5 = strategy(S5Server.class, "a periodic sync");
        synchronized (lock) {
            return s5.syncDue();
        }
    }

    /** Strategy 6's {@code PushSync(s)} after a session ended; waits like {@link #replyD}. */
    public ServerStep pushSync() throws InterruptedException {
        S6Server s6 = strategy(S6Server.class, "a push sync");
        return lockedWaiting(s6::pushSync, () -> syncsAtOnce(core.config().servers().others()));
    }

    /** Strategy 6: whether a session ended since the last {@link #pushSync}. */
    public boolean pushPending() {
        S6Server s6 = strategy(S6Server.class, "a push sync");
        synchronized (lock) {
            return s6.pushPending();
        }
    }

    /** {@code RecvSync(t, s)}: a peer's periodic or pushed sync. */
    public ServerStep recvSync(EoMessage.DSync sync) {
        return locked(() -> core.recvSync(sync));
    }

    /**
     * The receiving half of {@code PurgeSync(s, t)}: the peer's D merged, then what every server
     * holds or purged leaves K and D here (never a note whose aDeliver outcome is unknown: the
     * core keeps those). What lets the concurrent runtime purge.
     */
    public ServerStep recvPurgeSync(EoMessage.DSync sync) {
        return locked(() -> core.recvPurgeSync(sync));
    }

    /** Records a peer's reported K and D for purging, without merging it (an overheard sync). */
    public ServerStep learnSync(EoMessage.DSync sync) {
        return locked(() -> core.learnSync(sync));
    }

    /** The core's {@code reqD(t)}: one "Request for list D" of the gather (see {@link #reqAll}). */
    public ServerStep reqD(ServerId t) {
        return locked(() -> core.reqD(t));
    }

    /**
     * {@code ServerCrash(s)} for a runtime that keeps this object: the session and what peers
     * reported are lost, the durable state is not. An attempt in progress stays unresolved, so
     * replies and syncs keep waiting until {@link #aDeliverOk} / {@link #aDeliverErr} report its
     * outcome from the primitive's log (L193).
     */
    @Override
    public void crash() {
        synchronized (lock) {
            core.crash();
        }
    }

    public ServerStep receiveReplica(EoMessage.Replica replica) {
        return locked(() -> core.receiveReplica(replica));
    }

    /** {@link GatherServer#carryOnRound}. */
    public ServerStep carryOnRound() {
        return locked(core::carryOnRound);
    }

    public ServerStep createNote(NoteId id, String body) {
        return locked(() -> core.createNote(id, body));
    }

    // ---- observers ---------------------------------------------------------------------------

    @Override
    public GatherDurableState durable() {
        synchronized (lock) {
            return core.durable();
        }
    }

    public SortedSet<NoteId> d() {
        synchronized (lock) {
            return core.d();
        }
    }

    /** The K of this server (notes not yet purged). */
    public SortedSet<NoteId> k() {
        synchronized (lock) {
            return core.k();
        }
    }

    /** The aDeliver attempts whose outcome is unknown, with their sessions. */
    public java.util.SortedMap<NoteId, Long> unresolved() {
        synchronized (lock) {
            return core.unresolved();
        }
    }

    public GatherServer.Phase phase() {
        synchronized (lock) {
            return core.phase();
        }
    }

    // ---- the lock ----------------------------------------------------------------------------

    private ServerStep locked(Supplier<ServerStep> step) {
        Appended done;
        synchronized (lock) {
            done = append(step.get());
        }
        return done.commit();
    }

    private ServerStep lockedSignalling(Supplier<ServerStep> step) {
        Appended done;
        synchronized (lock) {
            done = append(step.get());
            lock.notifyAll();
        }
        return done.commit();
    }

    /**
     * Runs {@code step}; while the core defers it, waits for an outcome and tries again. The
     * {@link Deferral#ANSWER_AT_ONCE} control sends {@code atOnce} instead of waiting.
     */
    private ServerStep lockedWaiting(Supplier<ServerStep> step, Supplier<ServerStep> atOnce)
            throws InterruptedException {
        Appended appended;
        synchronized (lock) {
            ServerStep done = step.get();
            if (done.outcome().equals("deferred") && deferral == Deferral.ANSWER_AT_ONCE) {
                appended = append(atOnce.get());
            } else {
                while (done.outcome().equals("deferred")) {
                    lock.wait();
                    done = step.get();
                }
                appended = append(done);
            }
        }
        return appended.commit();
    }

    /** The control's syncs: our K, D and watermark now, with the clock now, to each of {@code to}. */
    private ServerStep syncsAtOnce(java.util.Collection<ServerId> to) {
        List<ServerEffect> out = new java.util.ArrayList<>();
        for (ServerId t : to) {
            out.add(new ServerEffect.Send(new EoMessage.DSync(core.config().self(), t, core.config().client(),
                    core.clock.now(), core.k(), core.d(), core.seen())));
        }
        return new ServerStep("synced", out);
    }

    /**
     * A step whose record is appended: {@link #commit} makes it (and every record before it)
     * durable, writes a checkpoint if one was claimed, and only then hands the step back, so the
     * caller carries out its sends and aDeliver call after the record is durable.
     */
    private final class Appended {
        private final ServerStep step;
        private final long seq;
        private final GatherDurableState checkpoint;

        Appended(ServerStep step, long seq, GatherDurableState checkpoint) {
            this.step = step;
            this.seq = seq;
            this.checkpoint = checkpoint;
        }

        ServerStep commit() {
            store.commit(seq);
            if (checkpoint != null) {
                store.checkpoint(checkpoint, seq);
            }
            return step;
        }
    }

    /**
     * Under the lock: appends the step's record (the journal's order is the core's) and, when a
     * checkpoint is due, takes the core's state consistent with that record (a copy of the state,
     * paid once per checkpoint, which comes only after the journal outgrew the last one).
     */
    private Appended append(ServerStep step) {
        long seq = store.lastSeq();
        for (ServerEffect effect : step.effects()) {
            if (effect instanceof ServerEffect.RecordGather r) {
                seq = store.append(r);
            }
        }
        GatherDurableState checkpoint = store.claimCheckpoint(seq) ? core.durable() : null;
        return new Appended(step, seq, checkpoint);
    }

    private <T extends GatherServer> T strategy(Class<T> type, String what) {
        if (!type.isInstance(core)) {
            throw new IllegalStateException(what + " needs a " + type.getSimpleName() + ", this is a "
                    + core.config().strategy() + " server");
        }
        return type.cast(core);
    }

    private static Optional<ServerEffect.ADeliver> call(ServerStep step) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.ADeliver)
                .map(e -> (ServerEffect.ADeliver) e).findFirst();
    }
}
