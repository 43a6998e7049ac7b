package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.ConnectStep;
import dev.onceproof.exactlyonce.ConnectVerdict;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.GatherClient;
import dev.onceproof.exactlyonce.GatherServer;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.Replication;
import dev.onceproof.exactlyonce.S6Server;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;

/**
 * The world of the Strategy 4-6 Lincheck tests: servers A and B, each a {@link
 * ConcurrentGatherServer} (the class under test) over the real core, and one client. Notes x and
 * y exist on both (atomic replication, notes Z1). Three threads, one per non-parallel group:
 * <ul>
 *   <li>"a": the client's visits to A ({@code visitA}: connect, StartSession, the gather, whose
 *       D request B's handler answers, EndGather) and A's delivery loop ({@code deliverA}: one
 *       aDeliver);</li>
 *   <li>"b": the same at B;</li>
 *   <li>"sync": the servers' syncs to each other, racing the gathers and the deliveries: {@code
 *       syncAB}/{@code syncBA} is the strategy's own sync merged by {@code RecvSync} (Strategy 4's
 *       plain sync, 5's {@code PeriodicSync}, 6's {@code PushSync}), {@code purgeSyncAB}/{@code
 *       purgeSyncBA} a sync merged by {@code recvPurgeSync} (the base's PurgeSync: K and D shrink),
 *       {@code learnSyncAB} one B only records ({@code learnSync}),
 *       and for Strategies 5 and 6 {@code tick} ({@link TimedGatherLincheckBase}): the clock,
 *       one tick on.</li>
 * </ul>
 * The client connects to one server at a time (a visit ends the previous connection), so the two
 * sessions interleave only as a client moving from A to B while A's thread is still at work: the
 * window in which B's gather must not miss a note A is handing over. The aDeliver primitive is
 * atomic (3.3.1): the client processes the note iff it is connected to the calling server.
 *
 * <p>Every interleaving is checked for NoDuplicateDelivery (no note processed twice) and
 * NoReattempt (L185: aDeliver is never called again for a note whose aDeliver succeeded).
 * Operation names and results match the sequential specification, the same world over the bare
 * sequential core ({@link SequentialGather4}, {@link SequentialGather5}, {@link SequentialGather6}).
 * Strategy 5's client keeps its promise (T_r = 1 tick: a visit sooner is refused, "tooSoon"),
 * Strategy 6's uploads its history at every visit.
 */
public abstract class GatherLincheckBase {

    static final String NOTES = "xy";

    private final ManualEoClock clock = new ManualEoClock(0);
    private final ClientId c = ClientId.of("c");
    private final ServerId a = ServerId.of("A");
    private final ServerId b = ServerId.of("B");
    private final Srv serverA;
    private final Srv serverB;
    private final GatherClient client;
    /**
     * Strategies 5 and 6: a visit's result is EndGather's outcome only, not whom it asked. Which
     * peers are stale is read at StartSession, after the client connected (S5's T_r check), and a
     * visit is not atomic: measured, Lincheck found "visitB(): delivering (asked none)" racing
     * "visitA(): tooSoon" and a periodic sync, which no sequential order gives (visitA's refusal
     * needs visitB's connect before it, visitB's fresh peer a sync after it). The validation still
     * checks every interleaving for a duplicate.
     */
    private final boolean timed;
    private final List<String> processed = new ArrayList<>();
    /** Notes whose aDeliver succeeded (any server). */
    private final List<String> succeeded = new ArrayList<>();
    /** aDeliver calls for a note that had already succeeded (NoReattempt broken). */
    private final List<String> reattempts = new ArrayList<>();

    /** Strategy 5's T_r, T_u (ticks; skew and T_e 0, so its freshness window is T_r). */
    static final long TR = 1;
    static final long TU = 1;

    /**
     * @param strategy S4, S5 or S6
     * @param sequential true for the sequential specification: the bare cores, no wrapper
     * @param attemptLog the wrapper's seam (the after-call one is the racy control)
     */
    protected GatherLincheckBase(Strategy strategy, boolean sequential,
            ConcurrentGatherServer.AttemptLog attemptLog) {
        this(strategy, sequential, attemptLog, ConcurrentGatherServer.Deferral.WAIT);
    }

    /** With the wrapper's second seam too ({@link ConcurrentGatherServer.Deferral}; the at-once one is a control). */
    protected GatherLincheckBase(Strategy strategy, boolean sequential,
            ConcurrentGatherServer.AttemptLog attemptLog, ConcurrentGatherServer.Deferral deferral) {
        TreeSet<ServerId> all = new TreeSet<>(List.of(a, b));
        GatherServer coreA = core(strategy, a, all);
        GatherServer coreB = core(strategy, b, all);
        for (char n : NOTES.toCharArray()) {
            ServerStep created = coreA.createNote(NoteId.global(String.valueOf(n)), String.valueOf(n));
            // The replication round to its end at once (the specs' atomic CreateNote).
            Replication.atOnce(created, s -> s.equals(a) ? coreA : coreB);
        }
        serverA = sequential ? new Bare(coreA) : new Wrapped(new ConcurrentGatherServer(coreA, ConcurrentGatherServer.Durable.NONE, attemptLog, deferral), strategy);
        serverB = sequential ? new Bare(coreB) : new Wrapped(new ConcurrentGatherServer(coreB, ConcurrentGatherServer.Durable.NONE, attemptLog, deferral), strategy);
        timed = strategy != Strategy.S4;
        client = (GatherClient) config(strategy, all).client(clock, StrategyConfig.ClientMemory.fresh());
    }

    private StrategyConfig config(Strategy strategy, TreeSet<ServerId> all) {
        return strategy.config(c, all, 0).times(strategy == Strategy.S5 ? TR : 0, strategy == Strategy.S5 ? TU : 0, 0);
    }

    private GatherServer core(Strategy strategy, ServerId self, TreeSet<ServerId> all) {
        return (GatherServer) config(strategy, all).server(self, clock, strategy.initialState());
    }

    /**
     * One tick of the shared clock (Strategies 5 and 6: {@link TimedGatherLincheckBase#tick}), under
     * the client's monitor: the client core reads the clock twice in one step (a visit's end of the
     * old connection and its T_r check for the new one), and a tick between the two let a visit
     * right after another connect, which no sequential order allows (measured: "Invalid execution
     * results" on the S5 control with visitB() delivering after visitA). A server reads the clock
     * once per step.
     */
    protected final String advanceClock() {
        synchronized (client) {
            clock.advance(1);
        }
        return "tick";
    }

    /** A server's steps: through the class under test, or straight on the core. */
    private interface Srv {
        ServerStep startSession(EoMessage.HistoryUpload upload);

        ServerStep reqAll();

        ServerStep recvD(EoMessage.DReply reply);

        ServerStep endGather();

        ServerStep replyD(EoMessage.DRequest request);

        ServerStep aDeliverNext(ConcurrentGatherServer.ADeliverPrimitive primitive);

        ServerStep sync(ServerId t);

        /** The strategy's own sync to the other server (S4: sync; S5: periodicSync; S6: pushSync). */
        ServerStep strategySync(ServerId t);

        ServerStep recvSync(EoMessage.DSync sync);

        ServerStep recvPurgeSync(EoMessage.DSync sync);

        ServerStep learnSync(EoMessage.DSync sync);
    }

    private static final class Wrapped implements Srv {
        private final ConcurrentGatherServer s;
        private final Strategy strategy;

        Wrapped(ConcurrentGatherServer s, Strategy strategy) {
            this.s = s;
            this.strategy = strategy;
        }

        @Override
        public ServerStep startSession(EoMessage.HistoryUpload upload) {
            return upload == null ? s.startSession() : s.startSession(upload);
        }

        @Override
        public ServerStep reqAll() {
            return s.reqAll();
        }

        @Override
        public ServerStep recvD(EoMessage.DReply reply) {
            return s.recvD(reply);
        }

        @Override
        public ServerStep endGather() {
            return s.endGather();
        }

        @Override
        public ServerStep replyD(EoMessage.DRequest request) {
            try {
                return s.replyD(request);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public ServerStep aDeliverNext(ConcurrentGatherServer.ADeliverPrimitive primitive) {
            return s.aDeliverNext(primitive);
        }

        @Override
        public ServerStep sync(ServerId t) {
            try {
                return s.sync(t);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public ServerStep strategySync(ServerId t) {
            // Strategy 4 syncs with one peer here; 5 and 6 their periodic and push syncs, to all.
            if (strategy != Strategy.S4) {
                return s.sync();
            }
            try {
                return s.sync(t);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public ServerStep recvSync(EoMessage.DSync sync) {
            return s.recvSync(sync);
        }

        @Override
        public ServerStep recvPurgeSync(EoMessage.DSync sync) {
            return s.recvPurgeSync(sync);
        }

        @Override
        public ServerStep learnSync(EoMessage.DSync sync) {
            return s.learnSync(sync);
        }
    }

    private static final class Bare implements Srv {
        private final GatherServer s;

        Bare(GatherServer s) {
            this.s = s;
        }

        @Override
        public ServerStep startSession(EoMessage.HistoryUpload upload) {
            return upload == null ? s.startSession() : ((S6Server) s).startSession(upload);
        }

        @Override
        public ServerStep reqAll() {
            return s.reqAll();
        }

        @Override
        public ServerStep recvD(EoMessage.DReply reply) {
            return s.recvD(reply);
        }

        @Override
        public ServerStep endGather() {
            return s.endGather();
        }

        @Override
        public ServerStep replyD(EoMessage.DRequest request) {
            return s.replyD(request);
        }

        /** The sequential loop turn: aDeliver, the call, its outcome, with nothing in between. */
        @Override
        public ServerStep aDeliverNext(ConcurrentGatherServer.ADeliverPrimitive primitive) {
            ServerStep calling = s.aDeliverNext();
            for (ServerEffect e : calling.effects()) {
                if (e instanceof ServerEffect.ADeliver call) {
                    return primitive.call(call.session(), call.note())
                            ? s.aDeliverOk(call.session(), call.note().id())
                            : s.aDeliverErr(call.session(), call.note().id());
                }
            }
            return calling;
        }

        @Override
        public ServerStep sync(ServerId t) {
            return s.sync(t);
        }

        @Override
        public ServerStep strategySync(ServerId t) {
            // Strategy 4 syncs with one peer here; 5 and 6 their periodic and push syncs, to all.
            return s.strategy() == Strategy.S4 ? s.sync(t) : s.sync();
        }

        @Override
        public ServerStep recvSync(EoMessage.DSync sync) {
            return s.recvSync(sync);
        }

        @Override
        public ServerStep recvPurgeSync(EoMessage.DSync sync) {
            return s.recvPurgeSync(sync);
        }

        @Override
        public ServerStep learnSync(EoMessage.DSync sync) {
            return s.learnSync(sync);
        }
    }

    private Srv server(ServerId s) {
        return s.equals(a) ? serverA : serverB;
    }

    // ---- operations ----------------------------------------------------------------------------

    @Operation(nonParallelGroup = "a")
    public String visitA() {
        return visit(a, b);
    }

    @Operation(nonParallelGroup = "a")
    public String deliverA() {
        return deliver(a);
    }

    @Operation(nonParallelGroup = "b")
    public String visitB() {
        return visit(b, a);
    }

    @Operation(nonParallelGroup = "b")
    public String deliverB() {
        return deliver(b);
    }

    /** A's own sync to B (S4 sync, S5 PeriodicSync, S6 PushSync): B merges A's D ({@code RecvSync}). */
    @Operation(nonParallelGroup = "sync")
    public String syncAB() {
        return sync(a, b, false);
    }

    @Operation(nonParallelGroup = "sync")
    public String syncBA() {
        return sync(b, a, false);
    }

    /** A's sync to B merged by {@code recvPurgeSync}: B merges A's D and purges what every D holds. */
    @Operation(nonParallelGroup = "sync")
    public String purgeSyncAB() {
        return sync(a, b, true);
    }

    @Operation(nonParallelGroup = "sync")
    public String purgeSyncBA() {
        return sync(b, a, true);
    }

    /**
     * B overhears A's sync ({@code learnSync}: A's K and D recorded for purging, not merged); a
     * later purge sync at B reads it.
     */
    @Operation(nonParallelGroup = "sync")
    public String learnSyncAB() {
        ServerStep step = server(a).sync(b);
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.DSync m) {
                return server(b).learnSync(m).outcome();
            }
        }
        return step.outcome();
    }

    /**
     * The client ends its connection (if any) and connects to s; s starts a session and gathers
     * from the servers its strategy finds stale (their handlers answer the D requests); the result
     * is EndGather's outcome and which servers were asked.
     */
    private String visit(ServerId s, ServerId other) {
        EoMessage.HistoryUpload upload = null;
        synchronized (client) {
            client.endConnection();
            ConnectStep step = client.connectTo(s);
            if (step.verdict() != ConnectVerdict.CONNECTED) {
                return step.verdict().specName();
            }
            for (ClientEffect e : step.effects()) {
                if (e instanceof ClientEffect.Send send && send.message() instanceof EoMessage.HistoryUpload h) {
                    upload = h;
                }
            }
        }
        server(s).startSession(upload);
        StringBuilder asked = new StringBuilder();
        for (ServerEffect e : server(s).reqAll().effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.DRequest req) {
                asked.append(req.to().name());
                for (ServerEffect r : server(other).replyD(req).effects()) {
                    if (r instanceof ServerEffect.Send back && back.message() instanceof EoMessage.DReply reply) {
                        server(s).recvD(reply);
                    }
                }
            }
        }
        String outcome = server(s).endGather().outcome();
        return timed ? outcome : outcome + "<" + asked;
    }

    /**
     * One turn of s's delivery loop; the result is the outcome ("delivered", "failed", "idle",
     * "refused"), not the note: a visit is not atomic (the client moves, then the server gathers),
     * so which note a server picks depends on when its gather read the other's D, which no
     * sequential order of whole visits reproduces. Which notes were processed, and how often, is
     * what the validation checks on every interleaving.
     */
    private String deliver(ServerId s) {
        return server(s).aDeliverNext((session, n) -> aDeliver(s, n)).outcome();
    }

    /**
     * The atomic delivery primitive: the client processes n iff it is connected to s (3.3.1). A
     * call from a session whose connection has ended (the client moved on and s has not noticed)
     * cannot reach the client and fails at once; like the spec, whose ADeliverOK/ADeliverErr need
     * {@code Live(s)}, it does not count as a call of L191 for NoReattempt.
     */
    private boolean aDeliver(ServerId s, Note n) {
        synchronized (client) {
            String id = n.id().text();
            if (!client.conn().filter(s::equals).isPresent()) {
                return false;
            }
            if (succeeded.contains(id)) {
                reattempts.add(s.name() + " calls aDeliver(" + id + ") after its success");
            }
            client.receiveNote(new EoMessage.NoteDelivery(s, c, n));
            processed.add(id);
            succeeded.add(id);
            return true;
        }
    }

    private String sync(ServerId from, ServerId to, boolean purge) {
        ServerStep step = purge ? server(from).sync(to) : server(from).strategySync(to);
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.DSync m && m.to().equals(to)) {
                return (purge ? server(to).recvPurgeSync(m) : server(to).recvSync(m)).outcome();
            }
        }
        return step.outcome();
    }

    /** NoDuplicateDelivery and NoReattempt on every explored interleaving. */
    @Validate
    public void noNoteProcessedTwiceAndNoReattempt() {
        synchronized (client) {
            for (int j = 0; j < processed.size(); j++) {
                for (int k = j + 1; k < processed.size(); k++) {
                    if (processed.get(j).equals(processed.get(k))) {
                        throw new IllegalStateException("note " + processed.get(j)
                                + " processed twice (NoDuplicateDelivery): " + processed);
                    }
                }
            }
            if (!reattempts.isEmpty()) {
                throw new IllegalStateException("NoReattempt broken (L185): " + reattempts);
            }
        }
    }
}
