package dev.onceproof.exactlyonce;

import dev.onceproof.exactlyonce.store.GatherServerStore;
import dev.onceproof.sim.SimNetwork;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * A simulated deployment of one server-centric strategy (4, 5 or 6) for one client: N servers
 * running the real {@link GatherServer} cores, each with its own clock (offset from true time by
 * at most the skew ε), durable state kept as the cores' records say (a crash rebuilds the core
 * from its last record), the real client core, and a network that loses, duplicates, reorders and
 * delays messages up to the lifetime T_e, with partitions between servers. Replication is atomic
 * (notes Z1): a created note is in every server's K at once.
 *
 * <p>The delivery primitive is the world's: {@link Primitive#ATOMIC} is {@code aDeliver} (3.3.1:
 * success iff the client processed the note, which it can only while connected to the caller);
 * {@link Primitive#PLAIN_DELIVER} is Section 3.1's {@code Deliver}, whose call may time out after
 * the client processed the note (the window of vulnerability, L183). An outcome is kept in the
 * primitive's own permanent log (L193) and reported to the core by a later step, so crashes,
 * syncs and D requests land between the call and its report; a recovering server gets the
 * unreported outcomes from that log.
 *
 * <p>Ghosts: how many times the client processed each note; aDeliver calls made for a note whose
 * earlier call succeeded (NoReattempt, L185).
 */
final class GatherWorld {

    enum Primitive { ATOMIC, PLAIN_DELIVER }


    /** A call whose outcome the primitive logged and the core has not been told yet. */
    private record Outcome(ServerId server, long session, NoteId note, boolean ok) {
    }

    /** A server's clock: true time plus a fixed offset within the skew. */
    private record OffsetClock(ManualEoClock truth, long offset) implements EoClock {
        @Override
        public long now() {
            return truth.now() + offset;
        }
    }

    static final long TE = 1;
    static final long SKEW = 1;
    static final long TU = 1;
    /** Strategy 5's T_r: rule R3 needs T_u + T_e < T_r - 2ε - T_e. */
    static final long TR = 6;

    final Strategy strategy;
    final Primitive primitive;
    private static final long START = 100;
    final ManualEoClock truth = new ManualEoClock(START);
    final List<ServerId> servers = new ArrayList<>();
    final ClientId client = ClientId.of("c");
    private final Map<ServerId, EoClock> clocks = new HashMap<>();
    private final EoClock clientClock;
    /** Each clock's offset from true time, the client's last (the timed step logs' ClockOffset). */
    private final long[] offsets;
    private final Map<ServerId, GatherServer> cores = new HashMap<>();
    /**
     * Each server's stable storage: the real store over an in-memory journal (the same codec bytes
     * and checkpoint rule as on disk; checkpoints due once the journal passes half the last one or
     * 64 bytes, so the worlds' short runs recover from checkpoints and records both). A crash loses what was not committed; every record here is committed as it is made.
     */
    private final Map<ServerId, InMemoryOperationLog.Disk> disks = new HashMap<>();
    private final Map<ServerId, GatherServerStore> stores = new HashMap<>();
    private static final Journal.Options STORE = new Journal.Options(Journal.Commit.GROUP, 0.5, 64);
    private GatherClient clientCore;
    /** Strategy 6: the client's stored history (what survives a client crash). */
    private ClientHistory storedHistory;
    /**
     * The shared simulated network, partitions between servers, and a message delivered up to age
     * T_e: GatherConfig's T_e is "a sync is received at most T_e after it is sent" (L95), and the
     * freshness window's margin covers that much (Z10); the gather specs have no message age (their
     * Te is the margin only). SimNetwork keeps a message fewer than its lifetime ticks, hence
     * T_e + 1 (with TE = 1, T_e alone would deliver nothing a tick late).
     */
    private final SimNetwork<EoMessage> net = new SimNetwork<>(TE + 1, GatherWorld::ends);
    private final List<Outcome> unreported = new ArrayList<>();
    /** A server partitioned from every other server forever (never healed), or null ({@link #isolate}). */
    private ServerId isolated;
    /**
     * Strategy 4: a sync is handed to {@code recvPurgeSync} directly instead of through the step
     * interface's {@code receive}. Both purge now ({@code receive} goes to {@code recvPeerSync},
     * which for Strategy 4 is {@code recvPurgeSync}); {@code GatherStaleSyncTest} turns it on to
     * name the purge it exercises.
     */
    boolean purgeSyncs;

    final Map<String, Integer> processed = new LinkedHashMap<>();
    final List<String> created = new ArrayList<>();
    final Set<String> succeeded = new HashSet<>();
    final List<String> reattempts = new ArrayList<>();
    int calls;
    int timeoutsAfterProcessing;
    /**
     * The step log (specs/exactlyonce/TraceExactlyOnceS4.tla, S5, S6), OFF unless {@link #logSteps}.
     * The world is one thread: a line is written inside its step, before the next step begins.
     */
    private StepLog log = StepLog.OFF;

    /**
     * @param offsets each server's clock offset from true time (|offset| <= ε), one per server;
     *     the client's clock is the last entry
     * @param history Strategy 6's initial history: UNKNOWN (a fresh device) or NEVER (an account
     *     known never to have connected)
     */
    GatherWorld(Strategy strategy, Primitive primitive, long[] offsets, ClientHistory history) {
        this.strategy = strategy;
        this.primitive = primitive;
        this.offsets = offsets.clone();
        int n = offsets.length - 1;
        for (int i = 0; i < n; i++) {
            ServerId s = ServerId.of(String.valueOf((char) ('A' + i)));
            servers.add(s);
            if (Math.abs(offsets[i]) > SKEW) {
                throw new IllegalArgumentException("offset " + offsets[i] + " above the skew " + SKEW);
            }
            clocks.put(s, new OffsetClock(truth, offsets[i]));
        }
        clientClock = new OffsetClock(truth, offsets[n]);
        for (ServerId s : servers) {
            disks.put(s, new InMemoryOperationLog.Disk("server " + s.name()));
            cores.put(s, newServer(s));
        }
        storedHistory = history;
        clientCore = (GatherClient) config().client(clientClock, memory(history));
    }

    /** What the client device holds: Strategy 6's history, when it has one (null elsewhere). */
    private static StrategyConfig.ClientMemory memory(ClientHistory history) {
        StrategyConfig.ClientMemory fresh = StrategyConfig.ClientMemory.fresh();
        return history == null ? fresh : fresh.withHistory(history);
    }

    /** The strategy's parameters as this world's seams and declared skew have them now. */
    private StrategyConfig config() {
        StrategyConfig c = strategy.config(client, new TreeSet<>(servers), TE)
                .times(strategy == Strategy.S5 ? TR : 0, strategy == Strategy.S5 ? TU : 0, declaredSkew);
        c = watermark ? c : c.withoutWatermark();
        // Strategy 4 has no freshness test to leave the skew out of.
        return skewInFreshness || strategy == Strategy.S4 ? c : c.withSkewLeftOutOfFreshness();
    }

    private GatherServer newServer(ServerId s) {
        GatherServerStore store = GatherServerStore.inMemory(disks.get(s), STORE);
        stores.put(s, store);
        return store.restore(state -> (GatherServer) config().server(s, clocks.get(s), state));
    }

    private boolean watermark = true;

    private boolean skewInFreshness = true;

    /** The control of {@code S5SkewTest}: freshness tests without the 2ε. Call before any step. */
    GatherWorld withSkewLeftOutOfFreshness() {
        skewInFreshness = false;
        for (ServerId s : servers) {
            cores.put(s, newServer(s));
        }
        return this;
    }

    /** The ε the servers are configured with; the clocks' real offsets stay within {@link #SKEW}. */
    private long declaredSkew = SKEW;

    /**
     * A misconfigured deployment: the servers are told the clocks deviate by at most {@code e}
     * (0: skew not accounted, the notes' M5-d) while the clocks keep their offsets. Call before any step.
     */
    GatherWorld declaringSkew(long e) {
        declaredSkew = e;
        for (ServerId s : servers) {
            cores.put(s, newServer(s));
        }
        return this;
    }

    /**
     * The control: every server rebuilt through the cores' seam without the sync watermark (the core
     * before issue 10's fix). Call before any step.
     */
    GatherWorld withoutWatermark() {
        watermark = false;
        for (ServerId s : servers) {
            cores.put(s, newServer(s));
        }
        return this;
    }

    /**
     * Logs the steps to {@code log} from now on, as the actions of the strategy's message-level spec
     * ({@link #specName}). Only with aDeliver ({@link Primitive#ATOMIC}): the plain Deliver's window of
     * vulnerability has no step in those specs. Strategies 5 and 6 need a clock layout the timed specs
     * can state ({@link #header}), and Strategy 6 a device that has connected nowhere (the spec's
     * initial H; a fresh device would be a ClientLoseH before the first line).
     */
    GatherWorld logSteps(StepLog log) {
        if (primitive != Primitive.ATOMIC) {
            throw new IllegalStateException("step logs are for aDeliver (TraceExactlyOnceS4/S5/S6)");
        }
        if (strategy == Strategy.S6 && (storedHistory == null || storedHistory.isUnknown())) {
            throw new IllegalStateException("a Strategy 6 step log starts from a history that knows every "
                    + "server (ClientHistory.never()), as the spec's Init, not " + storedHistory);
        }
        this.log = log;
        return this;
    }

    private boolean timed() {
        return strategy != Strategy.S4;
    }

    /** ExactlyOnceS4Msg, S5Msg or S6Msg: the spec the log is a behaviour of. */
    String specName() {
        return "ExactlyOnce" + strategy.name() + "Msg";
    }

    /**
     * The step log's header for this world. Strategies 5 and 6 add the timed constants: the spec
     * keeps one clock, {@code now}, that the client reads exactly (lastEnd, H) and server s reads as
     * {@code now + ClockOffset[s]} with offsets in 0..MaxSkew, so the world's time is logged as the
     * client's clock less its reading at the start ({@link #specTime}) and a server's offset as its
     * offset less the client's. That needs the client's clock to be the slowest (the spec's offsets
     * are not negative, so that no stamp is Never); a world whose client runs ahead of a server
     * cannot be logged. The margins are GatherConfig's for the world's ε and T_e: 2ε and T_e.
     */
    StepLog.Header header() {
        StepLog.Header h = new StepLog.Header(specName(), "msg", "world")
                .strings("Servers", servers.stream().map(ServerId::name).toList())
                .constant("Client", client.name());
        if (!timed()) {
            return h;
        }
        long client = offsets[servers.size()];
        Map<String, Long> clockOffset = new LinkedHashMap<>();
        long maxSkew = 0;
        for (int i = 0; i < servers.size(); i++) {
            long o = offsets[i] - client;
            if (o < 0) {
                throw new IllegalStateException("server " + servers.get(i).name() + "'s clock offset " + offsets[i]
                        + " is below the client's " + client + ": the timed specs' ClockOffset cannot be negative");
            }
            clockOffset.put(servers.get(i).name(), o);
            maxSkew = Math.max(maxSkew, o);
        }
        // The margins a correct core keeps for these clocks, whatever a seam or a misconfiguration
        // has made the cores keep: a core whose window differs shows at its StartSession's stale.
        h.map("ClockOffset", clockOffset).constant("MaxSkew", maxSkew)
                .constant("SkewAllowance", 2 * SKEW).constant("Te", TE)
                .constant("Boundary", "corrected");
        return strategy == Strategy.S5 ? h.constant("Tr", TR) : h;
    }

    /** A clock reading (the client's, or a server's stamp) on the timed specs' time line. */
    private long specTime(long reading) {
        return reading - START - offsets[servers.size()];
    }

    /**
     * The spec's D at s: the core's, and the successes the primitive has logged for s that the
     * core has not been told yet (the spec's ADeliverOK puts the note in D at the call, L193).
     */
    private List<String> specD(ServerId s) {
        TreeSet<String> d = new TreeSet<>();
        cores.get(s).d().forEach(i -> d.add(i.text()));
        for (Outcome o : unreported) {
            if (o.server().equals(s) && o.ok()) {
                d.add(o.note().text());
            }
        }
        return List.copyOf(d);
    }

    private List<String> kOf(ServerId s) {
        return cores.get(s).k().stream().map(NoteId::text).toList();
    }

    /** A line with the server's K and D after the step. */
    private void lineKD(ServerId s, StepLog open) {
        open.strings("K", kOf(s)).strings("D", specD(s)).end();
    }

    private StepLog line(String action, ServerId s) {
        return log.step(action).field("server", s.name());
    }

    private static List<String> texts(Collection<NoteId> ids) {
        return ids.stream().map(NoteId::text).sorted().toList();
    }

    // ---- steps -------------------------------------------------------------------------------

    /** A note for the client, created at server s and at once in every K. */
    void create(int s) {
        if (created.size() >= 6) {
            return;
        }
        String tag = "n" + (created.size() + 1);
        ServerId origin = servers.get(s % servers.size());
        ServerStep step = cores.get(origin).createNote(Optional.of(NoteId.global(tag)), tag);
        created.add(tag);
        record(origin, step);
        // The replication round (replicas, acks, commit) to its end at once: atomic replication.
        for (Replication.Hop h : Replication.atOnce(step, cores::get)) {
            record(h.server(), h.step());
        }
        if (log.on()) {
            log.step("CreateNote").field("note", tag).end();
        }
    }

    /**
     * The client ends its connection (if any; the old server's session ends) and connects to s,
     * which starts a session (Strategy 6: with the uploaded history). Strategy 5's client may
     * refuse (T_r); then it stays disconnected. Returns whether it connected.
     */
    boolean connect(int s) {
        disconnect();
        ServerId server = servers.get(s % servers.size());
        if (server.equals(isolated)) {
            return false; // the client never visits the irrelevant server
        }
        ConnectStep step = clientCore.connectTo(server);
        if (step.verdict() != ConnectVerdict.CONNECTED) {
            return false;
        }
        if (log.on()) {
            line("Connect", server).end();
        }
        EoMessage.HistoryUpload upload = null;
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.RecordHistory r) {
                storedHistory = r.history();
            } else if (e instanceof ClientEffect.Send send && send.message() instanceof EoMessage.HistoryUpload h) {
                upload = h;
            }
        }
        GatherServer core = cores.get(server);
        ServerStep started = upload != null ? core.receive(upload) : core.startSession();
        if (log.on()) {
            StepLog start = line("StartSession", server);
            // Strategies 5 and 6 decide whom to pull from by their clocks and TS (and 6 by H): the spec's stale.
            (timed() ? start.strings("stale", core.stale().stream().map(ServerId::name).toList()) : start).end();
        }
        carryOut(server, started);
        return true;
    }

    /**
     * Strategy 5's client with a timer (L221): time passes one tick at a time until the client
     * lets itself connect to s (at most T_r + 1 ticks), then it connects.
     */
    boolean connectWhenAllowed(int s) {
        for (long waited = 0; waited <= TR + 1; waited++) {
            if (connect(s)) {
                return true;
            }
            if (servers.get(s % servers.size()).equals(isolated)) {
                return false;
            }
            tick(1);
        }
        return false;
    }

    /** The phase of the session at the server the client is connected to, or null. */
    GatherServer.Phase connectedPhase() {
        return clientCore.conn().map(s -> cores.get(s).phase()).orElse(null);
    }

    boolean connected() {
        return clientCore.conn().isPresent();
    }

    void disconnect() {
        clientCore.conn().ifPresent(old -> {
            for (ClientEffect e : clientCore.endConnection()) {
                if (e instanceof ClientEffect.RecordHistory r) {
                    storedHistory = r.history();
                }
            }
            if (log.on()) {
                log.step("Disconnect").end();
            }
            carryOut(old, cores.get(old).endSession());
        });
    }

    /**
     * One step of the connected server's HandleClient: in the gather, end it if every stale server
     * replied, else (re)send the D requests; in delivery, one aDeliver call.
     */
    void session() {
        clientCore.conn().ifPresent(s -> {
            GatherServer core = cores.get(s);
            if (core.phase() == GatherServer.Phase.GATHER) {
                ServerStep end = core.endGather();
                if (end.outcome().equals("refused")) {
                    carryOut(s, core.reqAll());
                } else {
                    if (log.on() && end.outcome().equals("delivering")) {
                        lineKD(s, line("EndGather", s));
                    }
                    carryOut(s, end);
                }
            } else if (core.phase() == GatherServer.Phase.DELIVER) {
                carryOut(s, core.aDeliverNext());
            }
        });
    }

    /** The connected server gives up on an unreachable server: the session aborts (App. A.6). */
    void gatherFail() {
        clientCore.conn().ifPresent(s -> {
            ServerStep step = cores.get(s).gatherFail();
            if (log.on() && step.outcome().equals("aborted")) {
                line("GatherFail", s).end();
            }
            carryOut(s, step);
        });
    }

    /** The primitive's logged outcomes reach their cores (the end of each call, or recovery). */
    void reportOutcomes() {
        for (Outcome o : new ArrayList<>(unreported)) {
            GatherServer core = cores.get(o.server());
            ServerStep step = o.ok() ? core.aDeliverOk(o.session(), o.note()) : core.aDeliverErr(o.session(), o.note());
            unreported.remove(o);
            if (log.on()) {
                lineKD(o.server(), line("ReportOutcome", o.server()).field("note", o.note().text())
                        .field("ok", o.ok()));
            }
            carryOut(o.server(), step);
        }
    }

    /**
     * Server s's sync to t (Strategy 4's PurgeSync) or to all (5's PeriodicSync, 6's PushSync).
     * Strategy 6 pushes only while the client is not connected to s (L246 "only when there is new
     * information"; App. B L887 "at the end of each client connection"), as ExactlyOnceS6's PushSync.
     */
    void sync(int s, int t) {
        ServerId from = servers.get(s % servers.size());
        GatherServer core = cores.get(from);
        if (strategy == Strategy.S6 && clientCore.conn().filter(from::equals).isPresent()) {
            return;
        }
        if (strategy != Strategy.S4) {
            ServerStep step = core.sync();
            if (log.on()) {
                logRound(from, step);
            }
            carryOut(from, step);
        } else {
            ServerId to = servers.get(t % servers.size());
            if (!to.equals(from)) {
                carryOut(from, core.sync(to));
            }
        }
    }

    void crashServer(int s) {
        ServerId server = servers.get(s % servers.size());
        GatherDurableState held = cores.get(server).durable();
        disks.get(server).crash();
        cores.put(server, newServer(server)); // recovered from its store; sessions lost
        if (log.on()) {
            lineKD(server, line("ServerCrash", server));
        }
        // Every record here was committed as it was made, so the journal must give back exactly
        // what the core held: a change made without its operation shows here.
        if (!cores.get(server).durable().equals(held)) {
            throw new AssertionError("server " + server + " recovered " + cores.get(server).durable()
                    + " from its journal, but held " + held + " before the crash");
        }
        if (clientCore.conn().filter(server::equals).isPresent()) {
            crashClientConnection();
        }
    }

    /**
     * The client's connection drops without a clean end (its server crashed): the client core's
     * crash, which for Strategy 6 leaves H(s) open, the spec's ClientCrash (Strategy 4's log has it
     * as a Disconnect, the same step there).
     */
    private void crashClientConnection() {
        if (log.on()) {
            log.step(timed() ? "ClientCrash" : "Disconnect").end();
        }
        clientCore.crash();
    }

    /** The client device crashes: volatile state lost; Strategy 6 keeps its stored H, 5 waits T_r. */
    void crashClient(boolean loseHistory) {
        if (log.on()) {
            log.step("ClientCrash").end();
            // Strategy 6's ClientLoseH: every entry unknown, also those written since an earlier loss.
            if (loseHistory && strategy == Strategy.S6) {
                log.step("ClientLoseH").end();
            }
        }
        // Strategies 5 and 6: the server sees the connection close and drops the session, as the
        // timed specs' ClientCrash does (ExactlyOnceTimed's EndConnSession). Until the validation of
        // Strategy 6's log (validate/findings/s6-dead-session-after-client-crash.jsonl) the session
        // ran on, which the spec has no step for; Strategy 4's spec and world keep dead sessions.
        if (timed()) {
            clientCore.conn().ifPresent(old -> carryOut(old, cores.get(old).endSession()));
        }
        // Strategy 5's rebooted client does not know when its last connection ended: it waits T_r from now.
        clientCore = (GatherClient) config().client(clientClock,
                memory(loseHistory ? ClientHistory.unknown() : storedHistory).withLastEnd(OptionalLong.of(clientClock.now())));
        if (loseHistory) {
            storedHistory = ClientHistory.unknown();
        }
    }

    void tick(long ticks) {
        for (long i = 0; i < ticks; i++) {
            truth.advance(1);
            if (log.on() && timed()) {
                log.step("Tick").field("now", specTime(clientClock.now())).end();
            }
        }
        net.expire(truth.now());
    }

    /** The messages in flight, oldest first (the indices {@link #deliver} and {@link #lose} take). */
    List<EoMessage> inFlight() {
        return net.messages();
    }

    void lose(int index) {
        net.lose(index);
    }

    /** Delivers one message (a partition drops it); {@code duplicate} leaves a copy in the network. */
    void deliver(int index, boolean duplicate) {
        if (net.isEmpty()) {
            return;
        }
        Optional<EoMessage> taken = net.take(index, duplicate); // empty too when a partition drops it
        if (taken.isEmpty()) {
            return;
        }
        EoMessage m = taken.get();
        if (m instanceof EoMessage.DRequest r) {
            carryOut(r.to(), cores.get(r.to()).receive(r)); // its ReplyD line is the reply's send
        } else if (m instanceof EoMessage.DReply r) {
            ServerStep step = cores.get(r.to()).receive(r);
            if (log.on() && step.outcome().equals("merged")) {
                StepLog recv = line("RecvD", r.to()).field("peer", r.from().name()).strings("d", texts(r.d()));
                lineKD(r.to(), timed() ? recv.field("ts", specTime(r.ts())) : recv);
            }
            carryOut(r.to(), step);
        } else if (m instanceof EoMessage.DSync r) {
            GatherServer to = cores.get(r.to());
            ServerStep step = purgeSyncs && to.strategy() == Strategy.S4 ? to.recvPurgeSync(r) : to.receive(r);
            if (log.on()) {
                StepLog recv = line(timed() ? "RecvPeerSync" : "RecvPurgeSync", r.to()).field("peer", r.from().name())
                        .strings("k", texts(r.k())).strings("d", texts(r.d())).field("seen", r.seen());
                lineKD(r.to(), timed() ? recv.field("ts", specTime(r.ts())) : recv);
            }
            carryOut(r.to(), step);
        }
    }

    /** The two servers a server-to-server message is between (what a partition cuts). */
    private static SimNetwork.Ends ends(EoMessage m) {
        if (m instanceof EoMessage.DRequest r) {
            return new SimNetwork.Ends(r.from().name(), r.to().name());
        } else if (m instanceof EoMessage.DReply r) {
            return new SimNetwork.Ends(r.from().name(), r.to().name());
        } else if (m instanceof EoMessage.DSync r) {
            return new SimNetwork.Ends(r.from().name(), r.to().name());
        }
        return null;
    }

    /** Delivers the message sent last (a schedule favouring it holds older syncs back). */
    void deliverNewest() {
        deliver(net.newest(), false);
    }

    void cut(int x, int y) {
        ServerId a = servers.get(x % servers.size());
        ServerId b = servers.get(y % servers.size());
        if (!a.equals(b)) {
            net.cut(a.name(), b.name());
        }
    }

    /** Server {@code s} is cut off from every other server for good, and the client never visits it. */
    void isolate(int s) {
        isolated = servers.get(s % servers.size());
        net.isolate(isolated.name());
    }

    void heal() {
        net.heal();
    }

    /** Carries out a server step: the record first (durable), then sends and aDeliver calls. */
    /** The durable records of a step whose messages are the replication round's (sent at once). */
    private void record(ServerId s, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.RecordGather r) {
                stores.get(s).save(r, cores.get(s)::durable);
            }
        }
    }

    private void carryOut(ServerId s, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.RecordGather r) {
                stores.get(s).save(r, cores.get(s)::durable);
            } else if (e instanceof ServerEffect.Send send) {
                logSend(send.message());
                net.send(send.message(), truth.now());
            } else if (e instanceof ServerEffect.ADeliver call) {
                unreported.add(new Outcome(s, call.session(), call.note().id(), call(s, call.note())));
            }
        }
    }

    /** One step sends the round: one line, with the DSync every peer gets (the same K, D, seen, ts). */
    private void logRound(ServerId from, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.DSync m) {
                line(strategy == Strategy.S5 ? "PeriodicSync" : "PushSync", from).strings("k", texts(m.k()))
                        .strings("d", texts(m.d())).field("seen", m.seen()).field("ts", specTime(m.ts())).end();
                return;
            }
        }
    }

    /** The spec's sending steps: a D request, a reply to one (ReplyD receives and sends), a purge sync. */
    private void logSend(EoMessage m) {
        if (!log.on()) {
            return;
        }
        if (m instanceof EoMessage.DRequest r) {
            line("ReqD", r.from()).field("peer", r.to().name()).end();
        } else if (m instanceof EoMessage.DReply r) {
            StepLog reply = line("ReplyD", r.from()).field("peer", r.to().name()).strings("d", texts(r.d()));
            (timed() ? reply.field("ts", specTime(r.ts())) : reply).end();
        } else if (m instanceof EoMessage.DSync r && !timed()) { // 5 and 6 log their round in sync()
            line("SendPurgeSync", r.from()).field("peer", r.to().name()).strings("k", texts(r.k()))
                    .strings("d", texts(r.d())).field("seen", r.seen()).end();
        }
    }

    private boolean flaky;

    /** Makes the next primitive call fail (timeout) even if the client is there. */
    void flakyNextCall() {
        flaky = true;
    }

    /**
     * The primitive. ATOMIC: success iff the client is connected to s (and the call is not made to
     * fail), and then the client processes the note. PLAIN_DELIVER: the client processes the note
     * whenever connected, but a flaky call still times out (the acknowledgement is lost).
     */
    private boolean call(ServerId s, Note note) {
        calls++;
        String id = note.id().text();
        boolean there = clientCore.conn().filter(s::equals).isPresent();
        // A call on an ended connection cannot reach the client: not a call of L191 (the spec's
        // ADeliverOK/ADeliverErr need Live(s)).
        if (there && succeeded.contains(id)) {
            reattempts.add(s.name() + " calls aDeliver(" + id + ") after its success");
        }
        boolean fail = flaky;
        flaky = false;
        if (!there || (fail && primitive == Primitive.ATOMIC)) {
            if (log.on() && there) {
                line("ADeliverErr", s).field("note", id).end();
            }
            return false;
        }
        ClientStep step = clientCore.receiveNote(new EoMessage.NoteDelivery(s, client, note));
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.RecordHistory r) {
                storedHistory = r.history();
            } else if (e instanceof ClientEffect.Record r) {
                r.processed().ifPresent(n -> processed.merge(n.body(), 1, Integer::sum));
            }
        }
        if (fail) {
            timeoutsAfterProcessing++;
            return false;
        }
        if (log.on()) {
            line("ADeliverOK", s).field("note", id).end();
        }
        succeeded.add(id);
        return true;
    }

    /** A seeded schedule for {@code GatherProperties.run}: 20-149 steps, each in 0..9999. */
    static List<Integer> seededSchedule(SplittableRandom random) {
        List<Integer> schedule = new ArrayList<>();
        int length = 20 + random.nextInt(130);
        for (int i = 0; i < length; i++) {
            schedule.add(random.nextInt(10_000));
        }
        return schedule;
    }

    // ---- properties --------------------------------------------------------------------------

    List<String> duplicates() {
        return DeliveryGhosts.duplicates(processed);
    }

    List<String> unprocessed() {
        return DeliveryGhosts.unprocessed(created, processed);
    }

    /**
     * A fair, fault-free suffix (EventualDelivery's fairness): partitions heal (except the
     * isolated server's), outcomes are reported, time passes beyond T_r, syncs flow, the client
     * visits every server it may visit and each session runs until it has nothing left to deliver.
     */
    void fairSuffix(int rounds) {
        heal();
        reportOutcomes();
        for (int round = 0; round < rounds && !unprocessed().isEmpty(); round++) {
            for (int s = 0; s < servers.size(); s++) {
                tick(TR + 1);
                for (int t = 0; t < servers.size(); t++) {
                    sync(t, (t + 1) % servers.size());
                    drain();
                }
                if (!connect(s)) {
                    continue;
                }
                for (int k = 0; k < 4 * (created.size() + servers.size() + 2); k++) {
                    session();
                    drain();
                    reportOutcomes();
                }
                disconnect();
            }
        }
    }

    void drain() {
        for (int guard = 0; guard < 1000 && !net.isEmpty(); guard++) {
            deliver(0, false);
        }
    }

    /** Delivers every D request and reply in flight and holds the syncs back (a stale sync's schedule). */
    void drainGather() {
        for (int guard = 0; guard < 1000; guard++) {
            List<EoMessage> all = net.messages();
            int i = 0;
            while (i < all.size() && all.get(i) instanceof EoMessage.DSync) {
                i++;
            }
            if (i == all.size()) {
                return;
            }
            deliver(i, false);
        }
    }

    OptionalLong lastEndForS5() {
        return clientCore instanceof S5Client s5 ? s5.lastEnd() : OptionalLong.empty();
    }
}
