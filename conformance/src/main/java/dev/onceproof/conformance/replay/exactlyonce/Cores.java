package dev.onceproof.conformance.replay.exactlyonce;

import static dev.onceproof.conformance.replay.exactlyonce.ExactlyOnceReplayer.F;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.exactlyonce.ClientCore;
import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.EoClock;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S0Server;
import dev.onceproof.exactlyonce.S1Client;
import dev.onceproof.exactlyonce.S2Client;
import dev.onceproof.exactlyonce.S2Server;
import dev.onceproof.exactlyonce.S3Client;
import dev.onceproof.exactlyonce.Replication;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.S3Variant;
import dev.onceproof.exactlyonce.ServerConfig;
import dev.onceproof.exactlyonce.ServerCore;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.StreamServer;
import dev.onceproof.exactlyonce.store.ClientStore;
import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cores of one exactly-once trace: a server core per server (over a {@link ServerStore} on an
 * in-memory journal, so ServerCrash rebuilds it from what it made durable: checkpoint plus
 * operations), the client core (over a {@link ClientStore}, likewise for ClientCrash) and the
 * clock. {@link #step} is the core call of one trace action; {@link #abstractState} is what the
 * spec's variables say of the cores; {@link #storeMismatches} reopens every store after the step
 * (decoding its bytes) and compares what it recovers with the core's durable state, so a change
 * a core makes without journaling it is caught at the step that makes it (issue 19 item 2).
 */
final class Cores {

    /** Builds the cores; {@link #REAL} is the library's, tests pass a broken one. */
    interface Factory {
        ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable);

        ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored);

        Factory REAL = new Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                return (ServerCore) strategyConfig(spec, config.client(), config.servers(), config.te(), w, 0)
                        .server(config.self(), clock, durable);
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return strategyConfig(spec, id, new TreeSet<>(), 0, w, q)
                        .client(() -> 0, StrategyConfig.ClientMemory.fresh().withStable(stored));
            }
        };
    }

    /**
     * The strategy each Strategy 0-3 spec models, with the trace's constants. ExactlyOnceS3Printed
     * is Strategy 3 with App. A.4's HandleClient as printed (the refuted model's seam).
     */
    static StrategyConfig strategyConfig(String spec, ClientId client, java.util.SortedSet<ServerId> servers, long te,
            int w, int q) {
        Strategy strategy = Strategy.valueOf("S" + spec.charAt("ExactlyOnceS".length()));
        // The specs replayed here create a note in every K in one step (their atomic CreateNote).
        StrategyConfig c = strategy.config(client, servers, te).w(w).q(q).replicasStoredAtOnce();
        return spec.equals("ExactlyOnceS3Printed") ? c.variant(S3Variant.PRINTED) : c;
    }

    /**
     * T_e of the cores. The untimed specs have none (their wait is NoCopy): T_e is 1 and the clock
     * moves past it before every step. ExactlyOnceS0MsgTimed, ExactlyOnceS2Timed and
     * ExactlyOnceS3Timed have the constant Te and a clock of their own: the cores get its Te and the clock moves only on Tick,
     * to the trace's now, so a wait the trace has not finished binds in the core too.
     */
    private static final long UNTIMED_TE = 1;

    private final boolean timed;
    private final long te;

    private final String spec;
    private final Factory factory;
    private final ClientId client;
    private final List<ServerId> servers = new ArrayList<>();
    private final int w;
    private final int q;
    private final ManualEoClock clock = new ManualEoClock(0);
    private final Map<ServerId, ServerCore> cores = new TreeMap<>();
    private final Map<ServerId, ServerStore> stores = new TreeMap<>();
    private final Map<ServerId, InMemoryOperationLog.Disk> disks = new TreeMap<>();
    private final InMemoryOperationLog.Disk clientDisk = new InMemoryOperationLog.Disk("client");
    private ClientStore clientStore = ClientStore.inMemory(clientDisk, ClientStore.journal());
    /** A checkpoint every few records, so replay reopens stores across checkpoints as well as journals. */
    private static final Journal.Options STORE_OPTIONS = new Journal.Options(Journal.Commit.GROUP, 2.0, 128);
    private ClientCore clientCore;
    /** ExactlyOnceS1Msg: its Origins, and the sync messages on their way, by "from>to" (one per pair). */
    private final List<ServerId> origins = new ArrayList<>();
    /** ExactlyOnceS2Timed: its Origins, whose Condition 1 gate is compared. */
    private final Set<ServerId> originsOfModel = new TreeSet<>();
    private final Map<String, EoMessage> snet = new TreeMap<>();
    /** ExactlyOnceS0Msg: the replicas on their way, by "to|note" (its rnet; AllowDup keeps them). */
    private final Map<String, EoMessage.Replica> rnet = new TreeMap<>();
    private final boolean allowDup;

    Cores(String spec, ObjectNode constants, Factory factory) {
        this.spec = spec;
        this.factory = factory;
        this.timed = spec.endsWith("Timed");
        this.te = timed ? required(constants, "Te").asLong() : UNTIMED_TE;
        this.client = ClientId.of(required(constants, "Client").asText());
        required(constants, "Servers").forEach(s -> servers.add(ServerId.of(s.asText())));
        servers.sort(null);
        this.w = spec.startsWith("ExactlyOnceS2") ? required(constants, "W").asInt() : 0;
        this.q = spec.startsWith("ExactlyOnceS3") ? required(constants, "Q").asInt() : 0;
        this.allowDup = constants.path("AllowDup").asBoolean(false);
        if (spec.equals("ExactlyOnceS1Msg")) {
            required(constants, "Origins").forEach(x -> origins.add(ServerId.of(x.asText())));
            origins.sort(null);
        }
        if (spec.equals("ExactlyOnceS2Timed")) {
            required(constants, "Origins").forEach(x -> originsOfModel.add(ServerId.of(x.asText())));
        }
        for (ServerId s : servers) {
            disks.put(s, new InMemoryOperationLog.Disk("server " + s));
            stores.put(s, ServerStore.inMemory(disks.get(s), STORE_OPTIONS));
            cores.put(s, newServer(s));
        }
        clientCore = newClient();
    }

    private static JsonNode required(ObjectNode c, String name) {
        JsonNode v = c.get(name);
        if (v == null) {
            throw new IllegalArgumentException("the trace header's constants have no " + name);
        }
        return v;
    }

    private ServerCore newServer(ServerId s) {
        return factory.server(spec, new ServerConfig(s, client, new TreeSet<>(servers), te), clock, w,
                stores.get(s).load());
    }

    private ClientCore newClient() {
        ClientStableState initial = spec.startsWith("ExactlyOnceS3") ? new ClientStableState.IdList(new TreeSet<>())
                : spec.startsWith("ExactlyOnceS0") ? new ClientStableState.Stateless()
                : new ClientStableState.Streams(new TreeMap<>());
        return factory.client(spec, client, w, q, clientStore.stableOr(initial));
    }

    // ---- steps ---------------------------------------------------------------------------------

    /** Performs one trace action on the cores; returns mismatches in the step's own outcome. */
    List<Mismatch> step(String action, ObjectNode p) {
        if (!timed) {
            clock.advance(te + 1);
        }
        List<Mismatch> out = new ArrayList<>();
        switch (action) {
            case "Init", "Lose" -> {
                // Init: the cores were built; Lose: the network lost a message, no core call.
            }
            case "Tick" -> clock.set(p.get("now").asLong());
            case "CreateNote" -> out.addAll(create(p));
            case "ReceiveReplica" -> {
                EoMessage.Replica r = allowDup ? rnet.get(replicaKey(server(p), note(p)))
                        : rnet.remove(replicaKey(server(p), note(p)));
                if (r == null) {
                    throw new IllegalStateException("no replica of " + note(p) + " to " + server(p) + " in flight");
                }
                carryOut(server(p), receiveReplica(server(p), r));
            }
            case "Forget" -> expect(out, "Forget", "forgot", run(server(p), "forget", note(p)));
            case "Connect" -> clientCore.connect(server(p));
            case "Disconnect" -> clientCore.disconnect();
            case "ClientCrash" -> {
                clientDisk.crash();
                clientStore = ClientStore.inMemory(clientDisk, ClientStore.journal());
                clientCore = newClient();
            }
            case "ServerCrash" -> {
                disks.get(server(p)).crash();
                stores.put(server(p), ServerStore.inMemory(disks.get(server(p)), STORE_OPTIONS));
                cores.put(server(p), newServer(server(p)));
            }
            case "StartSession" -> expect(out, "StartSession", "started", run(server(p), "startSession", null));
            case "SendNote" -> expect(out, "SendNote", "sent", run(server(p), "sendNote", note(p)));
            case "ReceiveAck" -> run(server(p), "receiveAck", new EoMessage.NoteAck(client, server(p), note(p)));
            case "Timeout" -> expect(out, "Timeout", "aborted", run(server(p), "timeout", null));
            case "Sync" -> sync(server(p), ServerId.of(p.get("peer").asText()));
            case "StartSync" -> startSync(server(p), peer(p));
            case "HandleSync" -> expect(out, "HandleSync", "syncReplied",
                    deliverSync(server(p), peer(p), EoMessage.SyncRequest.class));
            case "ReceiveSyncReply" -> expect(out, "ReceiveSyncReply", "syncMerged",
                    deliverSync(server(p), peer(p), EoMessage.SyncReply.class));
            case "LoseSync" -> {
                if (snet.remove(p.get("from").asText() + ">" + p.get("to").asText()) == null) {
                    out.add(new Mismatch("LoseSync", "a sync message in flight", "none"));
                }
            }
            case "Authorize" -> expect(out, "Authorize", "authorized", run(server(p), "authorize", note(p)));
            case "ReceivePurgeAck" -> expect(out, "ReceivePurgeAck", "purged",
                    run(server(p), "receivePurgeAck", new EoMessage.PurgeAck(client, server(p), note(p))));
            case "ReceiveNote" -> {
                ClientStep step = clientCore.receiveNote(new EoMessage.NoteDelivery(server(p), client,
                        new Note(note(p), client, "")));
                commit(step);
                out.addAll(Mismatch.compare("verdict", p.get("verdict"), F.textNode(step.verdict().specName())));
            }
            case "ReceivePurge" -> commit(((S3Client) clientCore).receivePurge(
                    new EoMessage.PurgeRequest(server(p), client, note(p))));
            default -> throw new IllegalArgumentException("no exactly-once core call for action " + action);
        }
        return out;
    }

    private static void expect(List<Mismatch> out, String action, String outcome, ServerStep step) {
        out.addAll(Mismatch.compare(action + ".outcome", F.textNode(outcome), F.textNode(step.outcome())));
    }

    private List<Mismatch> create(ObjectNode p) {
        NoteId id = note(p);
        ServerId origin = p.has("server") ? server(p) : servers.get(0);
        ServerCore core = cores.get(origin);
        // Strategies 1-2 number the note themselves; the replica below must carry the trace's id.
        ServerStep step = core.createNote(core.strategy().numbersNotes() ? Optional.empty() : Optional.of(id),
                id.text());
        carryOut(origin, step);
        List<Mismatch> out = new ArrayList<>();
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s && s.message() instanceof EoMessage.Replica r) {
                out.addAll(Mismatch.compare("CreateNote.note", F.textNode(id.text()), F.textNode(r.note().id().text())));
                if (spec.startsWith("ExactlyOnceS0Msg")) {
                    rnet.put(replicaKey(r.to(), r.note().id()), r); // replication by messages: ReceiveReplica
                    continue;
                }
                ServerStep stored = receiveReplica(r.to(), r);
                carryOut(r.to(), stored);
                out.addAll(Mismatch.compare("CreateNote.replica." + r.to(), F.textNode("stored"), F.textNode(stored.outcome())));
                // Strategy 3's replication round (ack, commit) to its end at once: the atomic CreateNote.
                for (Replication.Hop h : Replication.atOnce(stored, cores::get)) {
                    carryOut(h.server(), h.step());
                }
            }
        }
        if (step.outcome().equals("blocked")) {
            out.add(new Mismatch("CreateNote.outcome", "\"created\"", "\"blocked\""));
        }
        return out;
    }

    private static String replicaKey(ServerId to, NoteId i) {
        return to.name() + "|" + i.text();
    }

    private ServerStep receiveReplica(ServerId s, EoMessage.Replica r) {
        return cores.get(s).receiveReplica(r);
    }

    private static ServerId peer(ObjectNode p) {
        return ServerId.of(p.get("peer").asText());
    }

    /**
     * ExactlyOnceS1Msg's StartSync(s, t): the core's request to t goes on its way. (The core asks
     * every other server; the message-level traces have two, so that is t alone.)
     */
    private void startSync(ServerId s, ServerId t) {
        for (ServerEffect e : run(s, "startSync", null).effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.SyncRequest req) {
                snet.put(s.name() + ">" + req.to().name(), req);
            }
        }
        if (!snet.containsKey(s.name() + ">" + t.name())) {
            throw new IllegalStateException("StartSync(" + s + ", " + t + "): the core sent no request to " + t);
        }
    }

    /** HandleSync / ReceiveSyncReply at {@code to} of the message from {@code from}; a reply goes on its way. */
    private ServerStep deliverSync(ServerId to, ServerId from, Class<? extends EoMessage> type) {
        EoMessage m = snet.remove(from.name() + ">" + to.name());
        if (!type.isInstance(m)) {
            throw new IllegalStateException("no " + type.getSimpleName() + " from " + from + " to " + to + " in flight: " + m);
        }
        ServerStep step = m instanceof EoMessage.SyncRequest req ? run(to, "handleSync", req)
                : run(to, "receiveSyncReply", m);
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.SyncReply reply) {
                snet.put(to.name() + ">" + reply.to().name(), reply);
            }
        }
        return step;
    }

    /** The spec's atomic Sync(s, t): s's round with t, then t's with s (each learns what the other sent). */
    private void sync(ServerId s, ServerId t) {
        exchange(s, t);
        exchange(t, s);
    }

    private void exchange(ServerId from, ServerId to) {
        ServerStep started = run(from, "startSync", null);
        for (ServerEffect e : started.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.SyncRequest req
                    && req.to().equals(to)) {
                ServerStep replied = run(to, "handleSync", req);
                for (ServerEffect r : replied.effects()) {
                    if (r instanceof ServerEffect.Send rs && rs.message() instanceof EoMessage.SyncReply reply) {
                        run(from, "receiveSyncReply", reply);
                    }
                }
            }
        }
    }

    /** One server step by name, its durable record saved (the ordering rule: before any send). */
    private ServerStep run(ServerId s, String method, Object arg) {
        ServerCore c = cores.get(s);
        ServerStep step = switch (method) {
            case "startSession" -> c.startSession();
            case "sendNote" -> c.sendNote((NoteId) arg);
            case "receiveAck" -> c.receiveAck((EoMessage.NoteAck) arg);
            case "timeout" -> c.timeout();
            case "startSync" -> c.startSync();
            case "handleSync" -> c.handleSync((EoMessage.SyncRequest) arg);
            case "receiveSyncReply" -> c.receiveSyncReply((EoMessage.SyncReply) arg);
            case "authorize" -> ((S3Server) c).authorize((NoteId) arg);
            case "receivePurgeAck" -> ((S3Server) c).receivePurgeAck((EoMessage.PurgeAck) arg);
            case "forget" -> ((S0Server) c).forgetRemoved((NoteId) arg);
            default -> throw new IllegalArgumentException(method);
        };
        carryOut(s, step);
        return step;
    }

    private void carryOut(ServerId s, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Record r) {
                ServerCore core = cores.get(s);
                stores.get(s).save(r, core::durable);
            }
        }
    }

    /**
     * Replay checks the store: every server's journal, reopened from its bytes (checkpoint plus
     * operations, as recovery reads it), must give the core's durable state, and the client's its
     * R. Called after every step; the reopened stores replace the old ones.
     */
    List<Mismatch> storeMismatches() {
        List<Mismatch> out = new ArrayList<>();
        for (ServerId s : servers) {
            ServerStore reopened = ServerStore.inMemory(disks.get(s), STORE_OPTIONS);
            stores.put(s, reopened);
            ServerDurableState core = cores.get(s).durable();
            if (!reopened.load().equals(core)) {
                out.add(new Mismatch("store." + s + " (the journal reopened)", core.toString(),
                        reopened.load().toString()));
            }
        }
        clientStore = ClientStore.inMemory(clientDisk, ClientStore.journal());
        Optional<ClientStableState> stored = clientStore.load().map(ClientStore.Contents::stable);
        if (stored.isPresent() && !stored.get().equals(clientCore.stable())) {
            out.add(new Mismatch("store.client (the journal reopened)", clientCore.stable().toString(),
                    stored.get().toString()));
        }
        return out;
    }

    private void commit(ClientStep step) {
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Record r) {
                clientStore.commit(r);
            }
        }
    }

    private static ServerId server(ObjectNode p) {
        return ServerId.of(p.get("server").asText());
    }

    /** A note id as the trace writes it: a string (S0, S3) or [server, seq(, inc)] (S1, S2). */
    static NoteId note(ObjectNode p) {
        return noteId(p.get("note"));
    }

    static NoteId noteId(JsonNode n) {
        if (n.isTextual()) {
            return NoteId.global(n.asText());
        }
        return NoteId.sequenced(ServerId.of(n.get("server").asText()), n.get("seq").asLong());
    }

    /**
     * ExactlyOnceS3Timed: after every step, each server's purge gate must be open exactly where the
     * spec's is, for every note in the spec's K[s]: {@code InEveryD(s, i) /\ Waited(s, i)}, i.e. in
     * every D as s last heard and {@code confirmedAt[s][i] + Te <= now}. The core is asked through
     * {@link S3Server#authorize(NoteId)}, which decides and sends nothing (its effects are dropped),
     * so a core that opens early (T_e ignored) or late is caught at the step where the two part,
     * not only at the trace's Authorize. (The spec's guard that no "purge" message is on its way
     * is the network's, not the core's, and is left out.)
     */
    List<Mismatch> gate(JsonNode state) {
        if (spec.startsWith("ExactlyOnceS0Msg")) {
            return forgetGate(state);
        }
        if (spec.equals("ExactlyOnceS2Timed")) {
            return conditionOneGate(state);
        }
        if (!timed) {
            return List.of();
        }
        long now = state.get("now").asLong();
        List<Mismatch> out = new ArrayList<>();
        for (ServerId s : servers) {
            for (JsonNode n : state.get("K").get(s.name())) {
                String i = n.asText();
                long since = state.get("confirmedAt").get(s.name()).get(i).asLong();
                boolean open = inEveryD(state, s, i) && since >= 0 && since + te <= now;
                String core = ((S3Server) cores.get(s)).authorize(noteId(n)).outcome();
                out.addAll(Mismatch.compare("gate[" + s.name() + "][" + i + "]",
                        F.textNode(open ? "authorized" : "refused"), F.textNode(core)));
            }
        }
        return out;
    }

    /**
     * ExactlyOnceS0Msg(Timed): after every step, each server's forget gate
     * ({@link S0Server#mayForget}) must be open exactly where the spec's is, for every id either
     * side has in removed[s]. ExactlyOnceS0MsgTimed's gate is {@code Confirmed(s, i) /\ Waited(s, i)}
     * at the trace's now: a core that forgets before the other server confirmed, or before T_e
     * has passed since, is caught at the step where the two part. ExactlyOnceS0Msg has no clock:
     * its other guard, {@code NoReplicaLeft(i)}, is the untimed form of the core's wait, so there
     * the gate is asked with the clock moved past T_e, as the next step would see it (see
     * {@link #UNTIMED_TE}), and only {@code Confirmed(s, i)} is compared.
     */
    private List<Mismatch> forgetGate(JsonNode state) {
        if (!timed) {
            clock.advance(te + 1);
        }
        List<Mismatch> out = new ArrayList<>();
        for (ServerId s : servers) {
            S0Server core = (S0Server) cores.get(s);
            Set<NoteId> ids = new TreeSet<>(core.durable().removed());
            state.get("removed").get(s.name()).forEach(n -> ids.add(noteId(n)));
            for (NoteId i : ids) {
                boolean confirmed = true;
                for (ServerId t : servers) {
                    confirmed &= t.equals(s) || contains(state.get("conf").get(s.name()).get(t.name()), i.text());
                }
                boolean open = confirmed && contains(state.get("removed").get(s.name()), i.text())
                        && (!timed || waited(state, s, i.text()));
                out.addAll(Mismatch.compare("forgetGate[" + s.name() + "][" + i.text() + "]",
                        F.textNode(open ? "open" : "closed"), F.textNode(core.mayForget(i) ? "open" : "closed")));
            }
        }
        return out;
    }

    /**
     * ExactlyOnceS2Timed: after every step, each origin's Condition 1 gate
     * ({@link S2Server#mayCreate}) must be open exactly where the spec's {@code MayUseTimed(x)} is
     * at the trace's now: the successor's number never used, or confirmed gone by every other
     * server T_e ago and not held by x. So a core that reuses before T_e has passed since the
     * confirmations is caught at the step where the two part. (The model bound MaxNotes is not
     * the core's and is left out.)
     */
    private List<Mismatch> conditionOneGate(JsonNode state) {
        long now = state.get("now").asLong();
        List<Mismatch> out = new ArrayList<>();
        for (JsonNode o : origins(state)) {
            String x = o.asText();
            long ctr = state.get("ctr").get(x).asLong();
            long k = (ctr + 1) % w;
            boolean open = ctr + 1 < w;
            if (!open) {
                open = true;
                for (ServerId y : servers) {
                    if (!y.name().equals(x)) {
                        long at = state.get("confAt").get(x).get(y.name()).get(String.valueOf(k)).asLong();
                        open &= at >= 0 && at + te <= now;
                    }
                }
                for (JsonNode i : state.get("K").get(x)) {
                    open &= !(i.get("server").asText().equals(x) && i.get("seq").asLong() == k);
                }
            }
            boolean core = ((S2Server) cores.get(ServerId.of(x))).mayCreate();
            out.addAll(Mismatch.compare("conditionOne[" + x + "]", F.textNode(open ? "open" : "closed"),
                    F.textNode(core ? "open" : "closed")));
        }
        return out;
    }

    /** The origins whose gate is compared: the servers that number notes in the trace's model. */
    private JsonNode origins(JsonNode state) {
        ArrayNode a = F.arrayNode();
        state.get("ctr").fieldNames().forEachRemaining(x -> {
            if (originsOfModel.isEmpty() || originsOfModel.contains(ServerId.of(x))) {
                a.add(x);
            }
        });
        return a;
    }

    /** ExactlyOnceS0MsgTimed's Waited(s, i): every other t confirmed i at confAt[s][t][i], T_e before now. */
    private boolean waited(JsonNode state, ServerId s, String i) {
        long now = state.get("now").asLong();
        for (ServerId t : servers) {
            JsonNode at = state.get("confAt").get(s.name()).get(t.name()).get(i);
            if (!t.equals(s) && (at.asLong() < 0 || at.asLong() + te > now)) {
                return false;
            }
        }
        return true;
    }

    /** The spec's InEveryD(s, i) on a trace state: in D[s] and in known[s][t] for every other t. */
    private boolean inEveryD(JsonNode state, ServerId s, String i) {
        if (!contains(state.get("D").get(s.name()), i)) {
            return false;
        }
        for (ServerId t : servers) {
            if (!t.equals(s) && !contains(state.get("known").get(s.name()).get(t.name()), i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(JsonNode array, String i) {
        for (JsonNode e : array) {
            if (e.asText().equals(i)) {
                return true;
            }
        }
        return false;
    }

    // ---- abstract state ------------------------------------------------------------------------

    Set<String> fields() {
        Set<String> f = new LinkedHashSet<>(List.of("conn", "K", "sess"));
        switch (spec) {
            case "ExactlyOnceS0" -> {
            }
            case "ExactlyOnceS0Msg", "ExactlyOnceS0MsgTimed" -> f.addAll(List.of("removed", "conf", "snet"));
            case "ExactlyOnceS1" -> f.addAll(List.of("ctr", "R"));
            case "ExactlyOnceS1Msg" -> f.addAll(List.of("ctr", "R", "pre", "snet"));
            case "ExactlyOnceS2", "ExactlyOnceS2Timed" -> f.addAll(List.of("ctr", "R", "conf"));
            case "ExactlyOnceS3", "ExactlyOnceS3Timed" -> f.addAll(List.of("D", "known", "R"));
            default -> f.addAll(List.of("D", "known", "R", "U"));
        }
        return f;
    }

    Map<String, JsonNode> abstractState() {
        Map<String, JsonNode> m = new TreeMap<>();
        m.put("conn", F.textNode(clientCore.conn().map(ServerId::name).orElse("none")));
        ObjectNode k = F.objectNode();
        ObjectNode sess = F.objectNode();
        ObjectNode d = F.objectNode();
        ObjectNode known = F.objectNode();
        ObjectNode u = F.objectNode();
        ObjectNode ctr = F.objectNode();
        ObjectNode conf = F.objectNode();
        ObjectNode removed = F.objectNode();
        for (ServerId s : servers) {
            ServerCore core = cores.get(s);
            ObjectNode session = F.objectNode();
            if (core instanceof S3Server c) {
                k.set(s.name(), ids(c.durable().k().keySet()));
                d.set(s.name(), ids(c.durable().d()));
                ObjectNode kn = F.objectNode();
                for (ServerId t : servers) {
                    kn.set(t.name(), ids(c.known().getOrDefault(t, new TreeSet<>())));
                }
                known.set(s.name(), kn);
                u.set(s.name(), ids(c.u()));
                session.put("active", c.active());
                session.set("pending", pending(c.pending().orElse(null)));
            } else {
                StreamServer c = (StreamServer) core;
                k.set(s.name(), ids(c.durable().k().keySet()));
                if (c instanceof S0Server s0) {
                    removed.set(s.name(), ids(c.durable().removed()));
                    ObjectNode byPeer = F.objectNode();
                    for (ServerId t : servers) {
                        byPeer.set(t.name(), ids(s0.confirmedBy(t)));
                    }
                    conf.set(s.name(), byPeer);
                }
                ctr.put(s.name(), c.durable().ctr());
                if (c instanceof S2Server s2) {
                    ObjectNode byPeer = F.objectNode();
                    for (ServerId t : servers) {
                        ArrayNode seqs = F.arrayNode();
                        if (!t.equals(s)) {
                            s2.confirmedBy(t).forEach(seqs::add);
                        }
                        byPeer.set(t.name(), seqs);
                    }
                    conf.set(s.name(), byPeer);
                }
                session.put("active", c.active());
                session.set("pending", pending(c.pending().orElse(null)));
            }
            sess.set(s.name(), session);
        }
        m.put("K", ExactlyOnceReplayer.normalize(k));
        m.put("sess", ExactlyOnceReplayer.normalize(sess));
        Set<String> fields = fields();
        if (fields.contains("D")) {
            m.put("D", ExactlyOnceReplayer.normalize(d));
            m.put("known", ExactlyOnceReplayer.normalize(known));
        }
        if (fields.contains("U")) {
            m.put("U", ExactlyOnceReplayer.activeOnly((ObjectNode) ExactlyOnceReplayer.normalize(u), sess));
        }
        if (fields.contains("ctr")) {
            m.put("ctr", ctr);
        }
        if (fields.contains("conf")) {
            m.put("conf", ExactlyOnceReplayer.normalize(conf));
        }
        if (fields.contains("removed")) {
            m.put("removed", ExactlyOnceReplayer.normalize(removed));
            m.put("snet", ExactlyOnceReplayer.normalize(syncsInFlight(false)));
        }
        if (fields.contains("R")) {
            m.put("R", ExactlyOnceReplayer.normalize(r()));
        }
        if (fields.contains("pre")) {
            ObjectNode pre = F.objectNode();
            for (ServerId s : servers) {
                pre.set(s.name(), prefixes(cores.get(s).durable().removed()));
            }
            m.put("pre", pre);
            m.put("snet", ExactlyOnceReplayer.normalize(syncsInFlight(true)));
        }
        return m;
    }

    /**
     * The sync messages on their way as the spec writes them: S1Msg's carry the sender's prefixes
     * ({@code pre}), S0Msg's its removed ids ({@code removed}; the spec's ghost {@code gone} is not
     * compared, {@link ExactlyOnceReplayer#normalize} drops it).
     */
    private ArrayNode syncsInFlight(boolean prefixes) {
        ArrayNode inFlight = F.arrayNode();
        for (EoMessage msg : snet.values()) {
            ObjectNode o = F.objectNode();
            boolean request = msg instanceof EoMessage.SyncRequest;
            EoMessage.SyncRequest q = request ? (EoMessage.SyncRequest) msg : null;
            EoMessage.SyncReply r = request ? null : (EoMessage.SyncReply) msg;
            java.util.SortedSet<NoteId> rem = request ? q.removed() : r.removed();
            o.put("from", (request ? q.from() : r.from()).name());
            o.set(prefixes ? "pre" : "removed", prefixes ? prefixes(rem) : ids(rem));
            o.put("to", (request ? q.to() : r.to()).name());
            o.put("type", request ? "syncReq" : "syncRep");
            inFlight.add(o);
        }
        return inFlight;
    }

    /**
     * The spec's prefix function [x \in Origins |-> n] of a Strategy 1 removal set: the core keeps
     * (and sends) the highest id of each stream, which stands for the prefix up to it.
     */
    private JsonNode prefixes(java.util.SortedSet<NoteId> removed) {
        ObjectNode pre = F.objectNode();
        for (ServerId x : origins) {
            long n = 0;
            for (NoteId i : removed) {
                if (i instanceof NoteId.Sequenced q && q.server().equals(x)) {
                    n = Math.max(n, q.seq());
                }
            }
            pre.put(x.name(), n);
        }
        return pre;
    }

    private JsonNode r() {
        ClientStableState st = clientCore.stable();
        if (st instanceof ClientStableState.IdList ids) {
            return ids(ids.r());
        }
        ObjectNode r = F.objectNode();
        for (ServerId s : servers) {
            long v = clientCore instanceof S2Client c2 ? c2.lastAccepted(s) : ((S1Client) clientCore).lastAccepted(s);
            r.put(s.name(), v);
        }
        return r;
    }

    private static JsonNode pending(NoteId i) {
        ArrayNode a = F.arrayNode();
        if (i != null) {
            a.add(id(i));
        }
        return a;
    }

    private static ArrayNode ids(Set<NoteId> ids) {
        ArrayNode a = F.arrayNode();
        ids.forEach(i -> a.add(id(i)));
        return a;
    }

    private static JsonNode id(NoteId i) {
        if (i instanceof NoteId.Sequenced s) {
            ObjectNode o = F.objectNode();
            o.put("seq", s.seq());
            o.put("server", s.server().name());
            return o;
        }
        return F.textNode(i.text());
    }

}
