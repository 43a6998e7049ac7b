package dev.onceproof.exactlyonce;

import dev.onceproof.exactlyonce.store.ClientStore;
import dev.onceproof.sim.SimNetwork;
import dev.onceproof.steplog.StepLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A simulated deployment of one strategy: N servers, M clients, every server running the real
 * server core for every client over an in-memory store, every client the real client core over a
 * {@link ClientStore} ({@link EoWorldNodes}), and a network that loses, duplicates, reorders and
 * delays messages, with the lifetime bound T_e (a message is gone at age T_e, as in the timed specs). Crashes rebuild a
 * core from its store. Replication: for Strategies 0-2 atomic (notes Z1: a created note is in every
 * server's K at once; their cores have no replication round), except in
 * {@link #s2WithReplicasAsMessages}; for Strategy 3 the replicas, their acknowledgements and
 * the commits are messages on the same network as everything else (lost, duplicated, reordered,
 * delayed within T_e), so a schedule can hold a replica back past a delivery, a sync and a purge.
 * Its step log, for trace validation, is {@link EoWorldLines}' ({@link EoWorldS2Lines}' for Strategy 2).
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
    final List<ServerId> servers = new ArrayList<>();
    final List<ClientId> clients = new ArrayList<>();
    private final EoWorldNodes nodes;
    /** The shared simulated network, with the lifetime bound T_e (no partitions: S0-S3 have none). */
    private final SimNetwork<EoMessage> net;
    /** Ghost: tag -> how many times a client processed that note. */
    final Map<String, Integer> processed = new LinkedHashMap<>();
    final List<String> created = new ArrayList<>();
    int reusedIds;
    private final java.util.Set<NoteId> everIssued = new java.util.HashSet<>();
    private int tags;
    /** Strategy 2's replicas travel as messages ({@link #s2WithReplicasAsMessages}). */
    private final boolean asyncReplicas;
    /** The step log's lines, written where each step happens; OFF unless {@link #logSteps}. */
    private final EoWorldLines lines;

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
        this(strategy, nServers, nClients, w, q, te, watermark, replicationRound, false, te);
    }

    /**
     * Strategy 2 as its cores run without a driver that hands replicas over at once (notes Z1,
     * ExactlyOnceS2MsgAsync): each replica is a message on the world's network, lost, duplicated,
     * reordered and delayed like the rest, and S2Server settles each number T_e after its issue by
     * the world's clock. One client (its step log validates against ExactlyOnceS2MsgAsync through
     * specs/exactlyonce/TraceExactlyOnceS2Async.tla).
     */
    static EoWorld s2WithReplicasAsMessages(int nServers, int w, long te) {
        return s2WithReplicasAsMessages(nServers, w, te, te);
    }

    /**
     * As {@link #s2WithReplicasAsMessages(int, int, long)}, the network keeping a message fewer than
     * {@code lifetime} ticks. The specs' lifetime, which S2Server's settle rule assumes, is
     * {@code te}; {@code te + 1} is the control of a network whose messages live one tick longer.
     */
    static EoWorld s2WithReplicasAsMessages(int nServers, int w, long te, long lifetime) {
        return new EoWorld(Strategy.S2, nServers, 1, w, 2, te, true, true, true, lifetime);
    }

    /**
     * The control of the lifetime bound: the world of {@code strategy} with replicas at once, its
     * network keeping a message fewer than {@code lifetime} ticks instead of T_e ({@code te + 1}: a
     * message may arrive at age T_e, which the specs' Tick forbids).
     */
    static EoWorld withNetworkLifetime(Strategy strategy, int nServers, int nClients, int w, int q, long te,
            long lifetime) {
        return new EoWorld(strategy, nServers, nClients, w, q, te, true, true, false, lifetime);
    }

    private EoWorld(Strategy strategy, int nServers, int nClients, int w, int q, long te, boolean watermark,
            boolean replicationRound, boolean asyncReplicas, long lifetime) {
        if (strategy.gathers()) {
            throw new IllegalArgumentException("EoWorld runs Strategies 0-3, not " + strategy);
        }
        if (asyncReplicas && strategy != Strategy.S2) {
            throw new IllegalArgumentException("replicas as messages are Strategy 2's world, not " + strategy + "'s");
        }
        this.strategy = strategy;
        this.w = w;
        this.q = q;
        this.te = te;
        this.asyncReplicas = asyncReplicas;
        // The specs' lifetime (ExactlyOnceS0MsgTimed's, S2Timed's and S3Timed's Tick: a message lives
        // fewer than T_e ticks, gone at age T_e), which SimNetwork keeps as it is given; S2Server's
        // settle rule counts a number settled at its issue + T_e on that reading.
        this.net = new SimNetwork<>(lifetime, null);
        for (int i = 0; i < nServers; i++) {
            servers.add(ServerId.of(String.valueOf((char) ('A' + i))));
        }
        for (int i = 0; i < nClients; i++) {
            clients.add(ClientId.of("c" + (i + 1)));
        }
        this.nodes = new EoWorldNodes(strategy, servers, clients, w, q, te, watermark, replicationRound,
                asyncReplicas, clock);
        this.lines = strategy == Strategy.S2
                ? new EoWorldS2Lines(w, q, te, servers, clients, nodes, asyncReplicas, net)
                : new EoWorldLines(strategy, w, q, te, servers, clients, nodes);
    }

    // ---- the controls: each swaps in broken server cores, rebuilt from their stores ------------

    /**
     * The control: Strategy 0 servers whose forget rule skips a guard (the seams of
     * MutS0MsgForgetUnconfirmed and MutS0MsgForgetEarly). Rebuilds the cores from their stores.
     */
    EoWorld withS0ForgetGuards(boolean confirmed, boolean te) {
        if (strategy != Strategy.S0) {
            throw new IllegalStateException("the forget guards are Strategy 0's, not " + strategy + "'s");
        }
        nodes.withS0ForgetGuards(confirmed, te);
        return this;
    }

    /**
     * The control: Strategy 2 servers that reuse a number as soon as the confirmations are in,
     * without the T_e wait (EoSeams.s2WithoutTeWait). Rebuilds the cores from their stores.
     */
    EoWorld withoutS2TeWait() {
        if (strategy != Strategy.S2) {
            throw new IllegalStateException("the T_e wait of Condition 1 is Strategy 2's, not " + strategy + "'s");
        }
        nodes.withoutS2TeWait();
        return this;
    }

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
        nodes.withoutS2SettleWait();
        return this;
    }

    /**
     * The control: Strategy 2 servers whose merge lets a removal naming an older incarnation take a
     * newer one held (rule "tag" off, S2Server.staleRemovalTakesNewerIncarnation; ExactlyOnceS2MsgAsync
     * with Tagged = FALSE, MutS2MsgAsyncTagIgnored). Rebuilds the cores from their stores.
     */
    EoWorld withoutS2Tag() {
        if (strategy != Strategy.S2) {
            throw new IllegalStateException("rule \"tag\" is Strategy 2's, not " + strategy + "'s");
        }
        nodes.withoutS2Tag();
        return this;
    }

    /**
     * The control: every server core applies the operations of {@code kind} but leaves them out
     * of its records, so its journal drifts from it; a server crash then finds the recovered state
     * differs from the core's. Rebuilds the cores from their stores; returns this.
     */
    EoWorld withoutJournaling(Class<? extends ServerOp> kind) {
        nodes.withoutJournaling(kind);
        return this;
    }

    /**
     * The control: Strategy 1 servers that merge a peer's prefix by overwriting it (the seam of
     * MutS1MsgMergeOverwrite). Rebuilds the cores from their stores; returns this.
     */
    EoWorld withPrefixOverwrite() {
        nodes.withPrefixOverwrite();
        return this;
    }

    /** Logs Strategy 0's to 3's steps to {@code log} from now on (its header: {@link #header()}). */
    EoWorld logSteps(StepLog log) {
        if (clients.size() != 1) {
            throw new IllegalStateException("step logs are for worlds with one client"
                    + " (TraceExactlyOnceS0, TraceExactlyOnceS1, TraceExactlyOnceS2, TraceExactlyOnceS3)");
        }
        nodes.logSteps(log, strategy);
        lines.start(log);
        return this;
    }

    /** The step log's header for this world: the spec, its mode and constants. */
    StepLog.Header header() {
        return lines.header();
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
        ClientId client = clients.get(c);
        ServerStep step = create(nodes.server(server, client), tag);
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
        lines.createNote(server, id, tag);
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Record r) {
                nodes.save(server, client, r);
            } else if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.Replica rep) {
                if (strategy == Strategy.S3 && !atOnce || asyncReplicas) {
                    net.send(rep, clock.now());
                } else if (strategy == Strategy.S3) {
                    carryOut(rep.to(), client, nodes.server(rep.to(), client).receive(rep), true);
                } else {
                    carryOut(rep.to(), client, nodes.server(rep.to(), client).receive(rep));
                    lines.replicaTakenAtOnce(rep.to(), id);
                }
            }
        }
    }

    /** The client connects to server s (index servers.size() = disconnect). */
    void connect(int c, int s) {
        ClientId client = clients.get(c);
        ClientCore core = nodes.client(client);
        core.conn().ifPresent(old -> {
            carryOut(old, client, nodes.server(old, client).endSession());
            lines.endSession(old);
        });
        if (core.conn().isPresent()) {
            lines.disconnect();
        }
        if (s >= servers.size()) {
            core.disconnect();
            return;
        }
        ServerId server = servers.get(s);
        core.connect(server);
        lines.connect(server);
        carryOut(server, client, nodes.server(server, client).startSession());
        lines.startSession(server);
    }

    void sendNote(int c) {
        ClientId client = clients.get(c);
        nodes.client(client).conn().ifPresent(s -> {
            EoServer core = nodes.server(s, client);
            ServerStep step = core.deliverNext();
            lines.sendNote(s, core, step);
            carryOut(s, client, step);
        });
    }

    void authorize(int c) {
        ClientId client = clients.get(c);
        nodes.client(client).conn().ifPresent(s -> {
            if (strategy == Strategy.S3) {
                carryOut(s, client, nodes.server(s, client).authorize());
            }
        });
    }

    void timeout(int s, int c) {
        EoServer core = nodes.server(servers.get(s), clients.get(c));
        Optional<NoteId> pending = core.pending();
        Integer inc = lines.incOfPending(core, pending);
        ServerStep step = core.timeout();
        lines.timeout(servers.get(s), pending, inc, step);
        carryOut(servers.get(s), clients.get(c), step);
    }

    void sync(int s, int c) {
        lines.forgets(servers.get(s));
        lines.settles(servers.get(s));
        ServerStep step = nodes.server(servers.get(s), clients.get(c)).sync();
        lines.startSync(step);
        carryOut(servers.get(s), clients.get(c), step);
    }

    void crashClient(int c) {
        nodes.crashClient(clients.get(c));
        lines.clientCrash();
    }

    void crashServer(int s) {
        ServerId server = servers.get(s);
        lines.serverCrash(server);
        nodes.crashServer(server);
    }

    /** The greatest age at which the network handed over a message so far (SimNetwork's ghost). */
    long oldestDelivered() {
        return net.oldestTaken();
    }

    /** Time passes; what has lived T_e ticks is gone from the network (the lifetime bound, 3.2). */
    void tick(long ticks) {
        clock.advance(ticks);
        java.util.Set<List<Object>> before = lines.copies();
        net.expire(clock.now());
        lines.loseLines(before);
        lines.ticks(clock.now(), ticks);
    }

    void lose(int index) {
        java.util.Set<List<Object>> before = lines.copies();
        net.lose(index);
        lines.loseLines(before);
    }

    /** Delivers one message; {@code duplicate} leaves a copy in the network. */
    void deliver(int index, boolean duplicate) {
        java.util.Set<List<Object>> before = lines.copies();
        Optional<EoMessage> taken = net.take(index, duplicate);
        if (taken.isEmpty()) {
            return;
        }
        deliver(taken.get());
        lines.loseLines(before);
    }

    private void deliver(EoMessage m) {
        if (m instanceof EoMessage.NoteDelivery d) {
            toClient(d.to(), core -> core.receiveNote(d), "ReceiveNote", d.from(), d.note().id(),
                    lines.incOf(d.note()));
        } else if (m instanceof EoMessage.PurgeRequest p) {
            toClient(p.to(), core -> ((S3Client) core).receivePurge(p), "ReceivePurge", p.from(), p.id(), null);
        } else if (m instanceof EoMessage.NoteAck a) {
            ServerStep step = nodes.server(a.to(), a.from()).receive(a);
            lines.receiveAck(a, step);
            carryOut(a.to(), a.from(), step);
        } else if (m instanceof EoMessage.PurgeAck a) {
            carryOut(a.to(), a.from(), nodes.server(a.to(), a.from()).receive(a));
        } else if (m instanceof EoMessage.SyncRequest r) {
            lines.forgets(r.to());
            ServerStep step = nodes.server(r.to(), r.client()).receive(r);
            lines.handleSync(r);
            carryOut(r.to(), r.client(), step);
        } else if (m instanceof EoMessage.SyncReply r) {
            ServerStep step = nodes.server(r.to(), r.client()).receive(r);
            lines.receiveSyncReply(r);
            carryOut(r.to(), r.client(), step);
        } else if (m instanceof EoMessage.Replica r) {
            ServerStep step = nodes.server(r.to(), r.note().client()).receive(r);
            lines.receiveReplica(r, step);
            carryOut(r.to(), r.note().client(), step);
        } else if (m instanceof EoMessage.ReplicaAck a) {
            carryOut(a.to(), a.client(), nodes.server(a.to(), a.client()).receive(a));
        } else if (m instanceof EoMessage.ReplicaCommit r) {
            carryOut(r.to(), r.client(), nodes.server(r.to(), r.client()).receive(r));
        }
    }

    /** A message reaches the client only while it is connected (to any server). */
    private void toClient(ClientId c, java.util.function.Function<ClientCore, ClientStep> receive, String action,
            ServerId from, NoteId id, Integer inc) {
        ClientCore core = nodes.client(c);
        if (core.conn().isEmpty()) {
            return;
        }
        ClientStep step = receive.apply(core);
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Record r) {
                nodes.commit(c, r);
                r.processed().ifPresent(note -> processed.merge(note.body(), 1, Integer::sum));
            }
        }
        lines.clientReceived(action, from, id, inc, step); // after the durable write, before the ack leaves
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Send s) {
                lines.clientSent(s.message(), inc);
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
                nodes.save(s, c, r);
            } else if (e instanceof ServerEffect.Send send && roundAtOnce && Replication.isRound(send.message())) {
                ServerId to = Replication.to(send.message());
                carryOut(to, c, nodes.server(to, c).receive(send.message()), true);
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
        return ((ClientStableState.IdList) nodes.client(clients.get(c)).stable()).r();
    }

    /** Every server core's durable state, server by server and client by client. */
    List<ServerDurableState> serverStates() {
        List<ServerDurableState> out = new ArrayList<>();
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                out.add((ServerDurableState) nodes.server(s, c).durable());
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
        return nodes.client(clients.get(c)).conn();
    }
}
