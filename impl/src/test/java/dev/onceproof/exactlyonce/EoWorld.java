package dev.onceproof.exactlyonce;

import dev.onceproof.exactlyonce.store.ClientStore;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.sim.SimNetwork;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A simulated deployment of one strategy: N servers, M clients, every server running the real
 * server core for every client over an in-memory store, every client the real client core over a
 * {@link ClientStore}, and a network that loses, duplicates, reorders and delays messages, with
 * the lifetime bound T_e (a message older than T_e is gone). Crashes rebuild a core from its store.
 * Replication: for Strategies 0-2 atomic (notes Z1: a created note is in every server's K at once;
 * their cores have no replication round), except in {@link #s2WithReplicasAsMessages}; for Strategy 3 the replicas, their acknowledgements and
 * the commits are messages on the same network as everything else (lost, duplicated, reordered,
 * delayed within T_e), so a schedule can hold a replica back past a delivery, a sync and a purge.
 *
 * <p>Ghost history: every note carries a unique tag in its body, so processings are counted per
 * note even when Strategy 2 reuses its wire id.
 */
final class EoWorld {

    final Strategy strategy;
    final int w;
    final int q;
    final long te;
    final ManualEoClock clock = new ManualEoClock(0);
    /** Per client: the strategy's parameters, with the watermark seam for the control. */
    private final Map<ClientId, StrategyConfig> configs = new HashMap<>();
    final List<ServerId> servers = new ArrayList<>();
    final List<ClientId> clients = new ArrayList<>();
    private final Map<ServerId, Map<ClientId, EoServer>> cores = new HashMap<>();
    private final Map<ServerId, Map<ClientId, ServerStore>> serverStores = new HashMap<>();
    /**
     * What survives a server's crash: its journal (in memory, through the real codec). A crash
     * loses what was not committed and recovery reopens the store on the disk (checkpoint plus
     * operations); checkpoints are due every few hundred bytes, so schedules cross them too.
     */
    private final Map<ServerId, Map<ClientId, InMemoryOperationLog.Disk>> serverDisks = new HashMap<>();
    private static final Journal.Options STORE_OPTIONS = new Journal.Options(Journal.Commit.GROUP, 2.0, 256);
    private final Map<ClientId, ClientCore> clientCores = new HashMap<>();
    private final Map<ClientId, ClientStore> clientStores = new HashMap<>();
    private final Map<ClientId, InMemoryOperationLog.Disk> clientDisks = new HashMap<>();
    /** The shared simulated network, with the lifetime bound T_e (no partitions: S0-S3 have none). */
    private final SimNetwork<EoMessage> net;
    /** Ghost: tag -> how many times a client processed that note. */
    final Map<String, Integer> processed = new LinkedHashMap<>();
    final List<String> created = new ArrayList<>();
    int reusedIds;
    private final java.util.Set<NoteId> everIssued = new java.util.HashSet<>();
    private int tags;
    /**
     * The step log, one for the world. Strategy 3 (specs/exactlyonce/TraceExactlyOnceS3.tla): the
     * S3Server cores write their own lines, the world the client's (after its durable write, before
     * its ack) and the environment's. Strategies 0 and 1 (TraceExactlyOnceS0.tla, TraceExactlyOnceS1.tla):
     * the world writes every line, the servers' right after the core's step returns (the world is
     * one thread, so that is inside the step: nothing else runs between); Strategy 0's also its
     * ticks, each replica taken and each removal forgotten (before the sync step that forgets it).
     * Strategy 2 (TraceExactlyOnceS2.tla) as Strategy 1, its notes with their incarnation (wire ids
     * are reused), its sync lines with the message (round, K, removed, seen), and a Lose line when
     * the last copy of a note or ack leaves the network (Condition 1 reads the copies in flight);
     * with replicas as messages (TraceExactlyOnceS2Async.tla) also ReceiveReplica, LoseReplica (the
     * last copy of a replica gone), SettleNumber and the origin's confirmations on each reply.
     * OFF unless {@link #logSteps}; one client only.
     */
    private StepLog log = StepLog.OFF;

    EoWorld(Strategy strategy, int nServers, int nClients, int w, int q, long te) {
        this(strategy, nServers, nClients, w, q, te, true);
    }

    /** {@code watermark = false}: the control, Strategy 3 servers that ignore the sync watermark (the seam). */
    EoWorld(Strategy strategy, int nServers, int nClients, int w, int q, long te, boolean watermark) {
        this(strategy, nServers, nClients, w, q, te, watermark, true);
    }

    /**
     * {@code replicationRound = false}: the control, Strategy 3 servers without the acknowledged
     * replication round (the seam), a note deliverable as soon as it is in K.
     */
    EoWorld(Strategy strategy, int nServers, int nClients, int w, int q, long te, boolean watermark,
            boolean replicationRound) {
        this(strategy, nServers, nClients, w, q, te, watermark, replicationRound, -1L);
    }

    /**
     * Strategy 2 as its cores run without a driver that hands replicas over at once (notes Z1,
     * ExactlyOnceS2MsgAsync): each replica is a message on the world's network, lost, duplicated,
     * reordered and delayed like the rest, and S2Server settles each number T_e after its issue by
     * the world's clock. One client (its step log validates against ExactlyOnceS2MsgAsync through
     * specs/exactlyonce/TraceExactlyOnceS2Async.tla).
     */
    static EoWorld s2WithReplicasAsMessages(int nServers, int w, long te) {
        return s2WithReplicasAsMessages(nServers, w, te, te - 1);
    }

    /**
     * As {@link #s2WithReplicasAsMessages(int, int, long)}, the network keeping a message until it is
     * older than {@code lifetime} ticks. The specs' lifetime, which S2Server's settle rule assumes,
     * is {@code te - 1} here (see the constructor); {@code te} is the control of a network whose
     * messages live one tick longer.
     */
    static EoWorld s2WithReplicasAsMessages(int nServers, int w, long te, long lifetime) {
        return new EoWorld(Strategy.S2, nServers, 1, w, 2, te, true, true, lifetime);
    }

    /** {@code lifetime >= 0}: Strategy 2 with replicas as messages, on a network with that bound. */
    private EoWorld(Strategy strategy, int nServers, int nClients, int w, int q, long te, boolean watermark,
            boolean replicationRound, long lifetime) {
        boolean asyncReplicas = lifetime >= 0;
        if (strategy.gathers()) {
            throw new IllegalArgumentException("EoWorld runs Strategies 0-3, not " + strategy);
        }
        this.strategy = strategy;
        this.w = w;
        this.q = q;
        this.te = te;
        this.asyncReplicas = asyncReplicas;
        // With replicas as messages the settle rule reads the lifetime, so the network keeps the
        // specs' one (ExactlyOnceS2Timed's Tick, ExactlyOnceS0MsgTimed's: a message lives fewer than
        // T_e ticks, gone at age T_e, when S2Server counts its number settled); SimNetwork's bound
        // keeps a message until it is older than the bound, so the bound is T_e - 1. With T_e (a
        // replica still arriving at age T_e) TLC refuses a SettleNumber line in 6 of 40 seeds. The
        // other worlds keep T_e (their stored logs were made so).
        this.net = new SimNetwork<>(asyncReplicas ? lifetime : te, null);
        for (int i = 0; i < nServers; i++) {
            servers.add(ServerId.of(String.valueOf((char) ('A' + i))));
        }
        for (int i = 0; i < nClients; i++) {
            ClientId c = ClientId.of("c" + (i + 1));
            clients.add(c);
            // Strategies 0-2: replicas reach every K within createNote (see the class doc), unless async.
            StrategyConfig config = strategy.config(c, new TreeSet<>(servers), te).w(w).q(q);
            config = asyncReplicas ? config : config.replicasStoredAtOnce();
            config = watermark ? config : config.withoutWatermark();
            configs.put(c, replicationRound ? config : config.withoutReplicationRound());
        }
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("server " + s + " for " + c);
                serverDisks.computeIfAbsent(s, x -> new HashMap<>()).put(c, disk);
                serverStores.computeIfAbsent(s, x -> new HashMap<>()).put(c, ServerStore.inMemory(disk, STORE_OPTIONS));
                cores.computeIfAbsent(s, x -> new HashMap<>()).put(c, newServer(s, c));
            }
        }
        for (ClientId c : clients) {
            clientDisks.put(c, new InMemoryOperationLog.Disk("client " + c));
            clientStores.put(c, ClientStore.inMemory(clientDisks.get(c), ClientStore.journal()));
            clientCores.put(c, newClient(c));
        }
    }

    private EoServer newServer(ServerId s, ClientId c) {
        ServerDurableState durable = serverStores.get(s).get(c).load();
        EoServer core = s0Guards != null
                ? new S0Server(configs.get(c).serverConfig(s), clock, durable, s0Guards[0], s0Guards[1])
                : s2NoTeWait ? new S2Server(configs.get(c).serverConfig(s), clock, w, durable, true, false, true,
                        !asyncReplicas)
                : s2NoSettleWait ? new S2Server(configs.get(c).serverConfig(s), clock, w, durable, true, true, false,
                        false)
                : configs.get(c).server(s, clock, durable);
        if (core instanceof S3Server s3) {
            s3.logSteps(log);
        }
        if (notJournaled != null && core instanceof S3Server s3) {
            s3.withoutJournaling(notJournaled);
        } else if (notJournaled != null) {
            ((StreamServer) core).withoutJournaling(notJournaled);
        }
        return core;
    }

    /** The control's seam: S0Server's forget guards {confirmed, T_e wait}, or null for the real ones. */
    private boolean[] s0Guards;

    /**
     * The control: Strategy 0 servers whose forget rule skips a guard (the seams of
     * MutS0MsgForgetUnconfirmed and MutS0MsgForgetEarly). Rebuilds the cores from their stores.
     */
    EoWorld withS0ForgetGuards(boolean confirmed, boolean te) {
        if (strategy != Strategy.S0) {
            throw new IllegalStateException("the forget guards are Strategy 0's, not " + strategy + "'s");
        }
        this.s0Guards = new boolean[] {confirmed, te};
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                cores.get(s).put(c, newServer(s, c));
            }
        }
        return this;
    }

    /** The control's seam: Strategy 2 servers whose Condition 1 does not wait T_e (EoSeams.s2WithoutTeWait). */
    private boolean s2NoTeWait;

    /**
     * The control: Strategy 2 servers that reuse a number as soon as the confirmations are in,
     * without the T_e wait (EoSeams.s2WithoutTeWait). Rebuilds the cores from their stores.
     */
    EoWorld withoutS2TeWait() {
        if (strategy != Strategy.S2) {
            throw new IllegalStateException("the T_e wait of Condition 1 is Strategy 2's, not " + strategy + "'s");
        }
        this.s2NoTeWait = true;
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                cores.get(s).put(c, newServer(s, c));
            }
        }
        return this;
    }

    /** Strategy 2's replicas travel as messages ({@link #s2WithReplicasAsMessages}). */
    private final boolean asyncReplicas;

    /** The control's seam: Strategy 2 servers without the settle rule (S2Server's settleWait). */
    private boolean s2NoSettleWait;

    /**
     * The control: Strategy 2 servers that count a confirmation from a sync request started before
     * the number settled (the cores before the fix; ExactlyOnceS2MsgAsync with Settle = FALSE),
     * through S2Server's package-private constructor. Only with replicas as messages: at once, every
     * number settles when issued. Rebuilds the cores from their stores.
     */
    EoWorld withoutS2SettleWait() {
        if (!asyncReplicas) {
            throw new IllegalStateException("the settle rule binds only with replicas as messages"
                    + " (EoWorld.s2WithReplicasAsMessages), not in a world of " + strategy + " with replicas at once");
        }
        this.s2NoSettleWait = true;
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                cores.get(s).put(c, newServer(s, c));
            }
        }
        return this;
    }

    /** The control's seam: an operation kind the servers' cores leave out of their records, or null. */
    private Class<? extends ServerOp> notJournaled;

    /**
     * The control: every server core applies the operations of {@code kind} but leaves them out
     * of its records, so its journal drifts from it; a server crash then finds the recovered state
     * differs from the core's. Rebuilds the cores from their stores; returns this.
     */
    EoWorld withoutJournaling(Class<? extends ServerOp> kind) {
        this.notJournaled = kind;
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                cores.get(s).put(c, newServer(s, c));
            }
        }
        return this;
    }

    /**
     * The control: Strategy 1 servers that merge a peer's prefix by overwriting it (the seam of
     * MutS1MsgMergeOverwrite). Rebuilds the cores from their stores; returns this.
     */
    EoWorld withPrefixOverwrite() {
        for (ClientId c : clients) {
            configs.put(c, configs.get(c).withPrefixOverwrite());
        }
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                cores.get(s).put(c, newServer(s, c));
            }
        }
        return this;
    }

    /** Logs Strategy 0's to 3's steps to {@code log} from now on (its header: {@link #header()}). */
    EoWorld logSteps(StepLog log) {
        if (clients.size() != 1) {
            throw new IllegalStateException("step logs are for worlds with one client"
                    + " (TraceExactlyOnceS0, TraceExactlyOnceS1, TraceExactlyOnceS2, TraceExactlyOnceS3)");
        }
        this.log = log;
        if (strategy == Strategy.S3) {
            cores.values().forEach(m -> m.values().forEach(core -> ((S3Server) core).logSteps(log)));
        }
        withR(line("Init")).end();
        return this;
    }

    /** The step log's header for this world: the spec, its mode and constants. */
    StepLog.Header header() {
        List<String> names = servers.stream().map(ServerId::name).toList();
        if (strategy == Strategy.S0) { // the forget rule waits T_e on the clock: the timed spec
            return new StepLog.Header("ExactlyOnceS0MsgTimed", "timed", "world").strings("Servers", names)
                    .constant("Client", clients.get(0).name()).constant("Te", te);
        }
        if (strategy == Strategy.S1) { // every server numbers notes of its own stream: all are origins
            return new StepLog.Header("ExactlyOnceS1Msg", "msg", "world").strings("Servers", names)
                    .strings("Origins", names).constant("Client", clients.get(0).name());
        }
        if (strategy == Strategy.S2 && asyncReplicas) { // replicas as messages, numbers settling T_e after issue
            return new StepLog.Header("ExactlyOnceS2MsgAsync", "async", "world").strings("Servers", names)
                    .strings("Origins", names).constant("Client", clients.get(0).name()).constant("W", w);
        }
        if (strategy == Strategy.S2) { // syncs as requests and replies with round, K, removed and seen
            return new StepLog.Header("ExactlyOnceS2Msg", "msg", "world").strings("Servers", names)
                    .strings("Origins", names).constant("Client", clients.get(0).name()).constant("W", w);
        }
        return new StepLog.Header("ExactlyOnceS3MsgRound", "round", "world").strings("Servers", names)
                .constant("Client", clients.get(0).name()).constant("Q", q);
    }

    /** The world writes the servers' lines (Strategies 0-2; Strategy 3's cores write their own). */
    private boolean logsServers() {
        return log.on() && strategy != Strategy.S3;
    }

    private boolean logsS2() {
        return log.on() && strategy == Strategy.S2;
    }

    private boolean logsS0() {
        return log.on() && strategy == Strategy.S0;
    }

    /** Strategy 0: server s's removed set and K, as a line shows them after the step. */
    private StepLog withRemoved(StepLog l, ServerId s) {
        ServerDurableState d = (ServerDurableState) cores.get(s).get(clients.get(0)).durable();
        return l.strings("removed", d.removed().stream().map(NoteId::text).toList())
                .strings("K", d.k().keySet().stream().map(NoteId::text).toList());
    }

    /**
     * Strategy 0: a Forget line for each id server s's next sync step will forget (S0Server
     * forgets every id its rule allows before a sync round or a request; mayForget changes nothing).
     */
    private void forgetLines(ServerId s) {
        if (!logsS0()) {
            return;
        }
        S0Server core = (S0Server) cores.get(s).get(clients.get(0));
        for (NoteId i : ((ServerDurableState) core.durable()).removed()) {
            if (core.mayForget(i)) {
                line("Forget").field("server", s.name()).field("note", i.text()).end();
            }
        }
    }

    /** The client's R on a line: Strategy 3's ids, Strategy 1's last number per stream (0 if none). */
    private StepLog withR(StepLog l) {
        if (strategy == Strategy.S0) { // the at-least-once client keeps nothing
            return l;
        }
        if (strategy == Strategy.S1 || strategy == Strategy.S2) { // S2: R[x] absent = W - 1 (S2Client)
            long none = strategy == Strategy.S1 ? 0L : w - 1;
            ClientStableState.Streams st = (ClientStableState.Streams) clientCores.get(clients.get(0)).stable();
            Map<String, Long> r = new java.util.TreeMap<>();
            servers.forEach(x -> r.put(x.name(), st.r().getOrDefault(x, none)));
            return l.longs("R", r);
        }
        return l.strings("R", r());
    }

    /** Strategy 1's {@code pre[s]}: the delivered prefix of every stream at server s. */
    private Map<String, Long> pre(ServerId s) {
        S1Server core = (S1Server) cores.get(s).get(clients.get(0));
        Map<String, Long> out = new java.util.TreeMap<>();
        servers.forEach(x -> out.put(x.name(), core.prefix(x)));
        return out;
    }

    /** A sync message's prefixes: its removal ids are the highest of each stream (0 for one it omits). */
    private Map<String, Long> pre(java.util.Set<NoteId> removed) {
        Map<String, Long> out = new java.util.TreeMap<>();
        servers.forEach(x -> out.put(x.name(), 0L));
        for (NoteId id : removed) {
            NoteId.Sequenced i = (NoteId.Sequenced) id;
            out.merge(i.server().name(), i.seq(), Math::max);
        }
        return out;
    }

    // ---- Strategy 2 (TraceExactlyOnceS2.tla): wire ids are reused, so a line names the incarnation
    /** Wire id -> how many notes were created with it so far (the next one's incarnation). */
    private final Map<NoteId, Integer> issues = new HashMap<>();
    /** A note's tag -> its incarnation, the spec's {@code Nth(x, k).inc}. */
    private final Map<String, Integer> incOfTag = new HashMap<>();
    /** Each ack the client sent -> the incarnation it acknowledges (the ack itself names only the wire id). */
    private final Map<EoMessage, Integer> ackInc = new java.util.IdentityHashMap<>();

    /** A line's note: its wire id and, for Strategy 2, its incarnation. */
    private StepLog note(StepLog l, NoteId id, Integer inc) {
        l.field("note", id.text());
        return strategy == Strategy.S2 ? l.field("inc", java.util.Objects.requireNonNull(inc, "incarnation")) : l;
    }

    private Integer incOf(Note n) {
        return strategy == Strategy.S2 ? incOfTag.get(n.body()) : null;
    }

    /** Strategy 2: server s's K (wire ids) and removed set, as a line shows them after the step. */
    private StepLog withK(StepLog l, ServerId s) {
        ServerDurableState d = (ServerDurableState) cores.get(s).get(clients.get(0)).durable();
        return l.strings("K", d.k().keySet().stream().map(NoteId::text).toList())
                .strings("removed", d.removed().stream().map(NoteId::text).toList());
    }

    /** Strategy 2: a sync message's round, K, removed and seen on its line. */
    private static StepLog syncMsg(StepLog l, long round, java.util.Set<NoteId> k, java.util.Set<NoteId> removed,
            long seen) {
        return l.field("round", round).strings("msgK", k.stream().map(NoteId::text).toList())
                .strings("msgRemoved", removed.stream().map(NoteId::text).toList()).field("msgSeen", seen);
    }

    /**
     * Strategy 2: the notes and acks in flight, one key per spec message (type, server, wire id,
     * incarnation): the spec's net is a set, the runtime's holds copies.
     */
    private java.util.Set<List<Object>> copies() {
        java.util.Set<List<Object>> out = new java.util.LinkedHashSet<>();
        if (!logsS2()) {
            return out;
        }
        for (EoMessage m : net.messages()) {
            if (m instanceof EoMessage.NoteDelivery d) {
                out.add(List.of("note", d.from(), d.note().id(), incOf(d.note())));
            } else if (m instanceof EoMessage.NoteAck a) {
                out.add(List.of("ack", a.to(), a.id(), ackInc.get(a)));
            } else if (m instanceof EoMessage.Replica r) { // the async spec's rnet: [note, to]
                out.add(List.of("replica", r.to(), r.note().id(), incOf(r.note())));
            }
        }
        return out;
    }

    /**
     * Strategy 2: a Lose line for each spec message whose last copy left the network since
     * {@code before} (taken, lost or expired): the spec's net keeps a received copy (AllowDup), and
     * the check of Condition 1 (no copy of a reused number in flight) reads it.
     */
    private void loseLines(java.util.Set<List<Object>> before) {
        if (!logsS2()) {
            return;
        }
        before.removeAll(copies());
        for (List<Object> k : before) {
            StepLog l = k.get(0).equals("replica") ? line("LoseReplica")
                    : line("Lose").field("type", (String) k.get(0));
            note(l.field("server", ((ServerId) k.get(1)).name()), (NoteId) k.get(2), (Integer) k.get(3)).end();
        }
    }

    /**
     * Strategy 2 with replicas as messages: the numbers whose CreateNote line was written and whose
     * SettleNumber line was not (the spec's complement of {@code settled}), per server.
     */
    private final Map<ServerId, java.util.SortedSet<Long>> unsettledLogged = new HashMap<>();

    /**
     * A SettleNumber line for each number of server s's stream that has settled by its core's clock
     * since its CreateNote line, written before s's next sync (the step that reads it). A restarted
     * core waits T_e again for a number the spec had settled (S2Server's constructor); it then moves
     * that number's issue round at a sync where the spec does not, a stricter confirmation, so the
     * log shows no second SettleNumber.
     */
    private void settleLines(ServerId s) {
        if (!logsS2() || !asyncReplicas) {
            return;
        }
        S2Server core = (S2Server) cores.get(s).get(clients.get(0));
        java.util.SortedSet<Long> open = unsettledLogged.getOrDefault(s, new TreeSet<>());
        for (java.util.Iterator<Long> it = open.iterator(); it.hasNext(); ) {
            long seq = it.next();
            if (core.settled(seq)) {
                line("SettleNumber").field("server", s.name()).field("seq", seq).end();
                it.remove();
            }
        }
    }

    /** Starts a world line (the caller ends it): world steps run on one thread, in order. */
    private StepLog line(String action) {
        return log.step(action);
    }

    private List<String> r() {
        return r(0).stream().map(NoteId::text).toList();
    }

    private ClientCore newClient(ClientId c) {
        return configs.get(c).client(clock, StrategyConfig.ClientMemory.fresh()
                .withStable(clientStores.get(c).load().map(ClientStore.Contents::stable)));
    }

    /** Numbering or naming a note is the one step whose form differs by strategy. */
    private ServerStep create(EoServer core, String tag) {
        return core.createNote(strategy.numbersNotes() ? Optional.empty() : Optional.of(NoteId.global(tag)), tag);
    }

    // ---- environment and protocol steps -------------------------------------------------------

    /**
     * Creates a note for client c at server s: for Strategies 0-2 replicas reach every K at once; for
     * Strategy 3 they go on the network, and the note is deliverable once its round completes.
     */
    void create(int s, int c) {
        create(s, c, false);
    }

    /** Creates a note for client c at server s with its replication round run to its end at once. */
    void createAtOnce(int s, int c) {
        create(s, c, true);
    }

    private void create(int s, int c, boolean atOnce) {
        String tag = "g" + (++tags);
        ServerId server = servers.get(s);
        ServerStep step = create(cores.get(server).get(clients.get(c)), tag);
        if (step.outcome().equals("blocked")) {
            tags--;
            return;
        }
        created.add(tag);
        NoteId id = step.effects().stream().filter(e -> e instanceof ServerEffect.Record).findFirst()
                .map(e -> ((ServerEffect.Record) e).ops().stream()
                        .filter(o -> o instanceof ServerOp.Enter en && en.note().body().equals(tag))
                        .map(o -> ((ServerOp.Enter) o).note().id()).findFirst().orElseThrow()).orElseThrow();
        if (!everIssued.add(id)) {
            reusedIds++;
        }
        if (logsS2()) {
            incOfTag.put(tag, issues.merge(id, 1, Integer::sum) - 1);
        }
        if (logsServers()) { // the replicas below enter every K within this step (atomic), or leave as messages
            note(line("CreateNote").field("server", server.name()), id, incOfTag.get(tag)).end();
        }
        if (logsS2() && asyncReplicas) {
            unsettledLogged.computeIfAbsent(server, x -> new TreeSet<>()).add(((NoteId.Sequenced) id).seq());
        }
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Record r) {
                EoServer core = cores.get(server).get(clients.get(c));
                serverStores.get(server).get(clients.get(c)).save(r, () -> (ServerDurableState) core.durable());
            } else if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.Replica rep) {
                if (strategy == Strategy.S3 && !atOnce || asyncReplicas) {
                    net.send(rep, clock.now());
                } else if (strategy == Strategy.S3) {
                    ClientId client = clients.get(c);
                    carryOut(rep.to(), client, cores.get(rep.to()).get(client).receive(rep), true);
                } else {
                    carryOut(rep.to(), clients.get(c), cores.get(rep.to()).get(clients.get(c)).receive(rep));
                    if (logsS0()) { // Strategy 0's spec replicates by messages, taken here at once
                        line("ReceiveReplica").field("server", rep.to().name()).field("note", id.text()).end();
                    }
                }
            }
        }
    }

    /** The client connects to server s (index servers.size() = disconnect). */
    void connect(int c, int s) {
        ClientId client = clients.get(c);
        ClientCore core = clientCores.get(client);
        core.conn().ifPresent(old -> {
            carryOut(old, client, cores.get(old).get(client).endSession());
            if (logsServers()) {
                line("EndSession").field("server", old.name()).end();
            }
        });
        if (core.conn().isPresent() && log.on()) {
            line("Disconnect").end();
        }
        if (s >= servers.size()) {
            core.disconnect();
            return;
        }
        ServerId server = servers.get(s);
        core.connect(server);
        if (log.on()) {
            line("Connect").field("server", server.name()).end();
        }
        carryOut(server, client, cores.get(server).get(client).startSession());
        if (logsServers()) {
            line("StartSession").field("server", server.name()).end();
        }
    }

    void sendNote(int c) {
        ClientId client = clients.get(c);
        clientCores.get(client).conn().ifPresent(s -> {
            EoServer core = cores.get(s).get(client);
            ServerStep step = core.deliverNext();
            if (logsServers() && step.outcome().equals("sent")) {
                Note sent = step.effects().stream().filter(e -> e instanceof ServerEffect.Send x
                        && x.message() instanceof EoMessage.NoteDelivery).map(e -> ((EoMessage.NoteDelivery)
                        ((ServerEffect.Send) e).message()).note()).findFirst().orElseThrow();
                note(line("SendNote").field("server", s.name()), core.pending().orElseThrow(), incOf(sent)).end();
            }
            carryOut(s, client, step);
        });
    }

    void authorize(int c) {
        ClientId client = clients.get(c);
        clientCores.get(client).conn().ifPresent(s -> {
            if (strategy == Strategy.S3) {
                carryOut(s, client, cores.get(s).get(client).authorize());
            }
        });
    }

    void timeout(int s, int c) {
        EoServer core = cores.get(servers.get(s)).get(clients.get(c));
        Optional<NoteId> pending = core.pending();
        Integer inc = logsS2() && pending.isPresent()
                ? incOf(((ServerDurableState) core.durable()).k().get(pending.get())) : null;
        ServerStep step = core.timeout();
        if (logsServers() && step.outcome().equals("aborted")) {
            note(line("Timeout").field("server", servers.get(s).name()), pending.orElseThrow(), inc).end();
        }
        carryOut(servers.get(s), clients.get(c), step);
    }

    void sync(int s, int c) {
        forgetLines(servers.get(s));
        settleLines(servers.get(s));
        ServerStep step = cores.get(servers.get(s)).get(clients.get(c)).sync();
        if (logsServers()) { // one request per peer, each the spec's StartSync(s, t)
            for (ServerEffect e : step.effects()) {
                if (logsS2() && e instanceof ServerEffect.Send send
                        && send.message() instanceof EoMessage.SyncRequest r) { // one StartSync: all peers
                    syncMsg(line("StartSync").field("server", r.from().name()), r.round(), r.k(), r.removed(),
                            r.seen()).end();
                    break;
                }
                if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.SyncRequest r) {
                    StepLog l = line("StartSync").field("server", r.from().name()).field("peer", r.to().name());
                    (logsS0() ? l.strings("msg", r.removed().stream().map(NoteId::text).toList())
                            : l.longs("msg", pre(r.removed()))).end();
                }
            }
        }
        carryOut(servers.get(s), clients.get(c), step);
    }

    void crashClient(int c) {
        ClientId client = clients.get(c);
        clientDisks.get(client).crash();
        clientStores.put(client, ClientStore.inMemory(clientDisks.get(client), ClientStore.journal())); // recovery
        clientCores.put(client, newClient(client)); // stable state from its store; conn lost
        if (log.on()) {
            line("ClientCrash").end();
            withR(line("Recover")).end();
        }
    }

    void crashServer(int s) {
        ServerId server = servers.get(s);
        if (log.on()) {
            line("ServerCrash").field("server", server.name()).end();
        }
        for (ClientId c : clients) {
            InMemoryOperationLog.Disk disk = serverDisks.get(server).get(c);
            disk.crash(); // loses nothing committed: every step's record was committed before its sends
            ServerStore recovered = ServerStore.inMemory(disk, STORE_OPTIONS); // checkpoint plus operations
            if (!recovered.load().equals(cores.get(server).get(c).durable())) {
                throw new IllegalStateException("server " + server + " recovers " + recovered.load()
                        + " from its journal, but its core held " + cores.get(server).get(c).durable());
            }
            serverStores.get(server).put(c, recovered);
            cores.get(server).put(c, newServer(server, c)); // durable state from its store; sessions lost
        }
    }

    /** Time passes; what is older than T_e is gone from the network (the lifetime bound, 3.2). */
    void tick(long ticks) {
        clock.advance(ticks);
        java.util.Set<List<Object>> before = copies();
        net.expire(clock.now());
        loseLines(before);
        if (logsS0()) { // the spec's Tick is one tick: one line each
            for (long t = clock.now() - ticks + 1; t <= clock.now(); t++) {
                line("Tick").field("now", t).end();
            }
        }
    }

    void lose(int index) {
        java.util.Set<List<Object>> before = copies();
        net.lose(index);
        loseLines(before);
    }

    /** Delivers one message; {@code duplicate} leaves a copy in the network. */
    void deliver(int index, boolean duplicate) {
        java.util.Set<List<Object>> before = copies();
        Optional<EoMessage> taken = net.take(index, duplicate);
        if (taken.isEmpty()) {
            return;
        }
        deliver(taken.get());
        loseLines(before);
    }

    private void deliver(EoMessage m) {
        if (m instanceof EoMessage.NoteDelivery d) {
            toClient(d.to(), core -> core.receiveNote(d), "ReceiveNote", d.from(), d.note().id(), incOf(d.note()));
        } else if (m instanceof EoMessage.PurgeRequest p) {
            toClient(p.to(), core -> ((S3Client) core).receivePurge(p), "ReceivePurge", p.from(), p.id(), null);
        } else if (m instanceof EoMessage.NoteAck a) {
            ServerStep step = cores.get(a.to()).get(a.from()).receive(a);
            if (logsS2() && step.outcome().equals("delivered")) {
                withK(note(line("ReceiveAck").field("server", a.to().name()), a.id(), ackInc.get(a)), a.to()).end();
            } else if (logsS0() && step.outcome().equals("delivered")) {
                withRemoved(line("ReceiveAck").field("server", a.to().name()).field("note", a.id().text()), a.to())
                        .end();
            } else if (logsServers() && strategy == Strategy.S1 && step.outcome().equals("delivered")) {
                line("ReceiveAck").field("server", a.to().name()).field("note", a.id().text())
                        .longs("pre", pre(a.to())).end();
            }
            carryOut(a.to(), a.from(), step);
        } else if (m instanceof EoMessage.PurgeAck a) {
            carryOut(a.to(), a.from(), cores.get(a.to()).get(a.from()).receive(a));
        } else if (m instanceof EoMessage.SyncRequest r) {
            forgetLines(r.to());
            ServerStep step = cores.get(r.to()).get(r.client()).receive(r);
            if (logsS2()) {
                withK(syncMsg(line("HandleSync").field("server", r.to().name()).field("peer", r.from().name()),
                        r.round(), r.k(), r.removed(), r.seen()), r.to()).end();
            }
            syncLine("HandleSync", r.to(), r.from(), r.removed());
            carryOut(r.to(), r.client(), step);
        } else if (m instanceof EoMessage.SyncReply r) {
            ServerStep step = cores.get(r.to()).get(r.client()).receive(r);
            if (logsS2()) {
                StepLog l = withK(syncMsg(line("ReceiveSyncReply").field("server", r.to().name())
                        .field("peer", r.from().name()), r.round(), r.k(), r.removed(), r.seen()), r.to());
                if (asyncReplicas) { // the numbers of its stream the peer has confirmed gone, after the step
                    l.numbers("conf", ((S2Server) cores.get(r.to()).get(r.client())).confirmedBy(r.from()));
                }
                l.end();
            }
            syncLine("ReceiveSyncReply", r.to(), r.from(), r.removed());
            carryOut(r.to(), r.client(), step);
        } else if (m instanceof EoMessage.Replica r) {
            ServerStep step = cores.get(r.to()).get(r.note().client()).receive(r);
            if (logsS2()) { // replicas travel only with replicas as messages
                withK(note(line("ReceiveReplica").field("server", r.to().name()), r.note().id(), incOf(r.note()))
                        .field("verdict", step.outcome()), r.to()).end();
            }
            carryOut(r.to(), r.note().client(), step);
        } else if (m instanceof EoMessage.ReplicaAck a) {
            carryOut(a.to(), a.client(), cores.get(a.to()).get(a.client()).receive(a));
        } else if (m instanceof EoMessage.ReplicaCommit r) {
            carryOut(r.to(), r.client(), cores.get(r.to()).get(r.client()).receive(r));
        }
    }

    /** Strategy 1: a sync message merged at {@code s}: the prefixes it carried and s's after the merge. */
    private void syncLine(String action, ServerId s, ServerId peer, java.util.Set<NoteId> removed) {
        if (logsS0()) {
            withRemoved(line(action).field("server", s.name()).field("peer", peer.name())
                    .strings("msg", removed.stream().map(NoteId::text).toList()), s).end();
        } else if (logsServers() && strategy == Strategy.S1) {
            line(action).field("server", s.name()).field("peer", peer.name()).longs("msg", pre(removed))
                    .longs("pre", pre(s)).end();
        }
    }

    /** A message reaches the client only while it is connected (to any server). */
    private void toClient(ClientId c, java.util.function.Function<ClientCore, ClientStep> receive, String action,
            ServerId from, NoteId id, Integer inc) {
        ClientCore core = clientCores.get(c);
        if (core.conn().isEmpty()) {
            return;
        }
        ClientStep step = receive.apply(core);
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Record r) {
                clientStores.get(c).commit(r);
                r.processed().ifPresent(note -> processed.merge(note.body(), 1, Integer::sum));
            }
        }
        if (log.on()) { // after the durable write, before the ack leaves
            StepLog l = note(line(action).field("server", from.name()), id, inc);
            if (action.equals("ReceiveNote")) {
                l.field("verdict", step.verdict().specName());
            }
            withR(l).end();
        }
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Send s) {
                if (logsS2() && s.message() instanceof EoMessage.NoteAck) {
                    ackInc.put(s.message(), inc);
                }
                net.send(s.message(), clock.now());
            }
        }
    }

    private void carryOut(ServerId s, ClientId c, ServerStep step) {
        carryOut(s, c, step, false);
    }

    /** {@code roundAtOnce}: the replication round's messages are taken at once, not sent. */
    private void carryOut(ServerId s, ClientId c, ServerStep step, boolean roundAtOnce) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Record r) {
                EoServer core = cores.get(s).get(c);
                serverStores.get(s).get(c).save(r, () -> (ServerDurableState) core.durable());
            } else if (e instanceof ServerEffect.Send send && roundAtOnce && Replication.isRound(send.message())) {
                ServerId to = Replication.to(send.message());
                carryOut(to, c, cores.get(to).get(c).receive(send.message()), true);
            } else if (e instanceof ServerEffect.Send send) {
                net.send(send.message(), clock.now());
            }
        }
    }

    int inFlight() {
        return net.size();
    }

    /** Notes processed more than once: the spec's NoDuplicateDelivery, broken. */
    List<String> duplicates() {
        return DeliveryGhosts.duplicates(processed);
    }

    List<String> unprocessed() {
        return DeliveryGhosts.unprocessed(created, processed);
    }

    /**
     * A fair, fault-free suffix (the fairness of EventualDelivery: the client connects to every
     * server again and again, the network delivers, syncs succeed, time passes beyond T_e).
     */
    void fairSuffix(int rounds) {
        fairRounds(rounds, () -> !unprocessed().isEmpty());
    }

    /** Fair rounds as {@link #fairSuffix}, for as long as {@code more} says (at most {@code rounds}). */
    void fairRounds(int rounds, java.util.function.BooleanSupplier more) {
        for (int round = 0; round < rounds && more.getAsBoolean(); round++) {
            for (int c = 0; c < clients.size(); c++) {
                for (int s = 0; s < servers.size(); s++) {
                    tick(te + 1);
                    for (int t = 0; t < servers.size(); t++) {
                        sync(t, c);
                        drain();
                    }
                    tick(te + 1);
                    connect(c, s);
                    for (int k = 0; k < 4 * (created.size() + q + 2); k++) {
                        authorize(c);
                        drain();
                        sendNote(c);
                        drain();
                    }
                }
            }
        }
    }

    private void drain() {
        while (!net.isEmpty()) {
            deliver(0, false);
        }
    }

    /** Strategy 3: the ids in client c's R (the slots still held). */
    java.util.SortedSet<NoteId> r(int c) {
        return ((ClientStableState.IdList) clientCores.get(clients.get(c)).stable()).r();
    }

    /** Every server core's durable state, server by server and client by client. */
    List<ServerDurableState> serverStates() {
        List<ServerDurableState> out = new ArrayList<>();
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                out.add((ServerDurableState) cores.get(s).get(c).durable());
            }
        }
        return out;
    }

    /** Delivers the oldest message in flight that {@code which} picks (a hand-made schedule's step). */
    void deliverFirst(java.util.function.Predicate<EoMessage> which) {
        deliver(net.first(which).orElseThrow(() -> new IllegalStateException("no such message in flight: " + net)),
                false);
    }

    /** Delivers the newest message in flight: older ones (a sync reply, say) wait and arrive stale. */
    void deliverNewest() {
        deliver(net.newest(), false);
    }

    Optional<ServerId> conn(int c) {
        return clientCores.get(clients.get(c)).conn();
    }
}
