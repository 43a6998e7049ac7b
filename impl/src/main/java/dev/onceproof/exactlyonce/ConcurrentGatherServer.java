package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * The Strategy 4-6 server state one server keeps for one client, shared by the client's session
 * thread (HandleClient of App. A.6-A.8: the gather, then the aDeliver loop) and the threads that
 * handle what other servers send meanwhile (their "Request for list D", periodic or pushed syncs)
 * and send this server's own syncs: the one concurrent wrapper {@link ConcurrentServer} over the
 * sequential {@link GatherServer} and its {@link Durable} store.
 *
 * <p>Its hand-off: the aDeliver call itself (a network hand-over to the client that may take up
 * to its timeout) runs outside the lock, so incoming syncs are not held up by a slow client. What
 * keeps that safe is the core's aDeliver log (notes Z9): the attempt is logged, and durable,
 * <em>before</em> the call, and while an outcome is unknown the core defers {@code replyD} and
 * syncs (a D without the note would let a peer deliver it again). The wrapper's deferral turns
 * "deferred" into waiting: a D request or a sync waits until the call's outcome is recorded
 * ({@link #aDeliverNext} wakes it); after a crash, until the runtime reports the unresolved
 * outcomes from the primitive's permanent log (L193, {@link #aDeliverOk} / {@link #aDeliverErr}).
 *
 * <p>Two seams make the Lincheck controls. {@link AttemptLog} moves the log one step later, after
 * the call: then a peer's gather can read this server's D while the client is processing the note,
 * which is mutant M4-d of the notes (the aDeliver outcome and the D update split). {@link Deferral}
 * keeps the log but answers a deferred reply or sync at once, with the D of that moment.
 */
public final class ConcurrentGatherServer extends ConcurrentServer<GatherServer, GatherDurableState> {

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
     * one): {@link #append}, like {@link #claimCheckpoint}, runs under the core's lock and never
     * waits for the disk ({@link ConcurrentServer.Store}).
     */
    public interface Durable extends Store<GatherDurableState> {
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

        /** None by default. */
        @Override
        default boolean claimCheckpoint(long seq) {
            return false;
        }

        @Override
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

    private final Durable store;
    private final ADeliverPrimitive primitive;
    private final AttemptLog attemptLog;

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
        super(core, store, Handoff.UNDER_LOCK, deferral);
        this.store = store;
        this.primitive = primitive;
        this.attemptLog = Objects.requireNonNull(attemptLog, "attemptLog");
    }

    // ---- the hand-off ------------------------------------------------------------------------

    /** {@link #aDeliverNext(ADeliverPrimitive)} with the primitive this server was built with. */
    @Override
    public ServerStep deliverNext() {
        if (primitive == null) {
            throw new IllegalStateException("deliverNext of the step interface needs the aDeliver primitive: build "
                    + "this server with one, or call aDeliverNext(ADeliverPrimitive)");
        }
        return aDeliverNext(primitive);
    }

    /** Refused: only Strategy 3 purges with the client's consent. */
    @Override
    public ServerStep authorize() {
        return core.authorize();
    }

    /**
     * One turn of HandleClient's delivery loop: pick the next note of K - D, log the attempt, call
     * {@code aDeliver} outside the lock once the attempt is durable, then record its outcome
     * ({@code ADeliverOK} / {@code ADeliverErr}) and wake whoever waits for it. Returns the outcome
     * step ("delivered", "failed"), or the core's refusal ("idle", "refused") when there was
     * nothing to call.
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
        // The note the core would offer (its replication round complete): until the Strategy 4
        // SIGKILL run's step logs showed it, this seam picked any note of K - D, called aDeliver on
        // a note whose round was open, which the core then refused to record, and so processed it
        // again at every turn with no kill at all (n41 nine times in one run).
        ServerStep chosen = observe(() -> {
            if (core.phase() != GatherServer.Phase.DELIVER || core.pending().isPresent()) {
                return ServerStep.of("refused");
            }
            return core.nextOffer().map(n -> new ServerStep("chosen",
                    List.<ServerEffect>of(new ServerEffect.ADeliver(core.session(), n)))).orElse(ServerStep.of("idle"));
        });
        Optional<ServerEffect.ADeliver> call = call(chosen);
        if (call.isEmpty()) {
            return chosen;
        }
        long session = call.get().session();
        NoteId i = call.get().note().id();
        boolean ok = client.call(session, call.get().note());
        return locked(() -> {
            ServerStep calling = core.aDeliver(session, i);
            if (call(calling).isEmpty()) {
                return calling;
            }
            ServerStep outcome = ok ? core.aDeliverOk(session, i) : core.aDeliverErr(session, i);
            // Both steps' records, the attempt's first: each carries only its own changes.
            List<ServerEffect> effects = new ArrayList<>();
            calling.effects().stream().filter(e -> e instanceof ServerEffect.RecordGather).forEach(effects::add);
            effects.addAll(outcome.effects());
            return new ServerStep(outcome.outcome(), effects);
        });
    }

    private static Optional<ServerEffect.ADeliver> call(ServerStep step) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.ADeliver)
                .map(e -> (ServerEffect.ADeliver) e).findFirst();
    }

    // ---- the deferral: what the ANSWER_AT_ONCE control sends -----------------------------------

    /** The control's D reply: our D and clock now. */
    @Override
    protected ServerStep replyAtOnce(EoMessage m) {
        EoMessage.DRequest request = (EoMessage.DRequest) m;
        return new ServerStep("replied", List.of(new ServerEffect.Send(new EoMessage.DReply(core.config().self(),
                request.from(), core.config().client(), request.session(), core.clock.now(), core.d()))));
    }

    @Override
    protected ServerStep syncAtOnce() {
        return syncsAtOnce(core.config().servers().others());
    }

    /** The control's syncs: our K, D and watermark now, with the clock now, to each of {@code to}. */
    private ServerStep syncsAtOnce(Collection<ServerId> to) {
        List<ServerEffect> out = new ArrayList<>();
        for (ServerId t : to) {
            out.add(new ServerEffect.Send(new EoMessage.DSync(core.config().self(), t, core.config().client(),
                    core.clock.now(), core.k(), core.d(), core.seen())));
        }
        return new ServerStep("synced", out);
    }

    // ---- the spec-named steps ----------------------------------------------------------------

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

    /** The core's {@code reqD(t)}: one "Request for list D" of the gather (see {@link #reqAll}). */
    public ServerStep reqD(ServerId t) {
        return locked(() -> core.reqD(t));
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

    /**
     * {@code ReplyD(t, s)} at this server: our D and clock. While an aDeliver outcome is unknown
     * here the reply waits for it (the core defers it), so it never omits a note the client may be
     * processing. Interruptible: an interrupted handler sends nothing.
     */
    public ServerStep replyD(EoMessage.DRequest request) throws InterruptedException {
        return deferrable(() -> core.replyD(request), () -> replyAtOnce(request));
    }

    /** A sync of our K, D and clock to peer t; waits like {@link #replyD} while an outcome is unknown. */
    public ServerStep sync(ServerId t) throws InterruptedException {
        return deferrable(() -> core.sync(t), () -> syncsAtOnce(List.of(t)));
    }

    /** A sync of our K, D and clock to every other server; waits like {@link #replyD}. */
    public ServerStep syncAll() throws InterruptedException {
        return deferrable(core::syncAll, this::syncAtOnce);
    }

    /**
     * Strategy 5's {@code PeriodicSync(s)} (every T_u; the runtime's timer asks {@link #syncDue}):
     * waits like {@link #replyD}, so a sync stamped with a send time never omits a note the client
     * may already have processed (a peer would take our D as fresh at that time and skip the pull).
     */
    public ServerStep periodicSync() throws InterruptedException {
        S5Server s5 = strategy(S5Server.class, "a periodic sync");
        return deferrable(s5::periodicSync, this::syncAtOnce);
    }

    /** Strategy 5: whether T_u has passed since the last {@link #periodicSync}. */
    public boolean syncDue() {
        S5Server s5 = strategy(S5Server.class, "a periodic sync");
        return observe(s5::syncDue);
    }

    /** Strategy 6's {@code PushSync(s)} after a session ended; waits like {@link #replyD}. */
    public ServerStep pushSync() throws InterruptedException {
        S6Server s6 = strategy(S6Server.class, "a push sync");
        return deferrable(s6::pushSync, this::syncAtOnce);
    }

    /** Strategy 6: whether a session ended since the last {@link #pushSync}. */
    public boolean pushPending() {
        S6Server s6 = strategy(S6Server.class, "a push sync");
        return observe(s6::pushPending);
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

    private <T extends GatherServer> T strategy(Class<T> type, String what) {
        if (!type.isInstance(core)) {
            throw new IllegalStateException(what + " needs a " + type.getSimpleName() + ", this is a "
                    + core.config().strategy() + " server");
        }
        return type.cast(core);
    }

    // ---- observers ---------------------------------------------------------------------------

    public SortedSet<NoteId> d() {
        return observe(core::d);
    }

    /** The K of this server (notes not yet purged). */
    public SortedSet<NoteId> k() {
        return observe(core::k);
    }

    /** The aDeliver attempts whose outcome is unknown, with their sessions. */
    public SortedMap<NoteId, Long> unresolved() {
        return observe(core::unresolved);
    }

    public GatherServer.Phase phase() {
        return observe(core::phase);
    }

    // ---- the journal -------------------------------------------------------------------------

    @Override
    protected GatherDurableState state() {
        return core.durable();
    }

    /** Every record of the step, in order (the after-call control's step has two). */
    @Override
    protected long append(ServerStep step) {
        long seq = store.lastSeq();
        for (ServerEffect effect : step.effects()) {
            if (effect instanceof ServerEffect.RecordGather r) {
                seq = store.append(r);
            }
        }
        return seq;
    }
}
