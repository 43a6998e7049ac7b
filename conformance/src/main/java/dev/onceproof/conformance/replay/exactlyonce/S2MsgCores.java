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
import dev.onceproof.exactlyonce.S2Client;
import dev.onceproof.exactlyonce.S2Server;
import dev.onceproof.exactlyonce.ServerConfig;
import dev.onceproof.exactlyonce.ServerCore;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.store.ClientStore;
import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * The cores of one ExactlyOnceS2Msg or ExactlyOnceS2MsgAsync trace: an S2Server per server over a
 * {@link ServerStore} on an in-memory journal (ServerCrash rebuilds it from what it made durable),
 * the S2Client over its store, and the networks the specs name, holding only what the cores sent:
 * {@code snet} (sync requests and replies, one per kind and direction, as the specs' bound on
 * a server's own sync allows) and, Async, {@code rnet} (replicas, by receiver and note).
 *
 * <p><b>Time.</b> ExactlyOnceS2Msg is untimed (Condition 1's T_e wait is ~CopyOfSeq, replication
 * atomic so nothing settles): T_e is 1 and every clock moves past it before each step, as for the
 * untimed specs in {@link Cores}. ExactlyOnceS2MsgAsync has no clock either, but its SettleNumber
 * step is "T_e has passed since x.k was issued (or x restarted)", and S2Server decides that by its
 * clock. So each server has its own clock, and T_e is {@link #ASYNC_TE} ticks, more than the ticks
 * a trace adds otherwise (one before each CreateNote and ServerCrash of that server, so each wait
 * starts at a time of its own): a wait ends only when the trace's SettleNumber moves the clock, tick
 * by tick until the core counts the number settled, and it must within T_e. The settled numbers
 * are then compared after every step, so a core that settles early (no wait) or late is caught
 * where it parts from the spec. Condition 1's own T_e wait after the confirmations: at a
 * CreateNote the core refuses, the clock moves until it may (at most T_e), since the spec's guard
 * stands for that wait. The trace models keep SettleNumber in the order the waits started
 * (MCExactlyOnceS2MsgAsyncTrace's SettleInOrder), the order one clock gives.
 */
final class S2MsgCores {

    /** Builds the server cores; {@link #REAL} is the library's, tests pass a broken one. */
    interface Factory {
        ServerCore server(ServerConfig config, EoClock clock, int w, boolean replicasAsMessages,
                ServerDurableState durable);

        Factory REAL = (config, clock, w, replicasAsMessages, durable) -> {
            StrategyConfig c = Strategy.S2.config(config.client(), new TreeSet<>(config.servers()), config.te()).w(w);
            return (ServerCore) (replicasAsMessages ? c : c.replicasStoredAtOnce()).server(config.self(), clock, durable);
        };
    }

    /** ExactlyOnceS2MsgAsync's T_e in ticks: above the ticks a trace of at most a few hundred steps adds. */
    static final long ASYNC_TE = 1000;
    private static final long UNTIMED_TE = 1;
    private static final Journal.Options STORE_OPTIONS = new Journal.Options(Journal.Commit.GROUP, 2.0, 128);

    private final boolean async;
    /** ExactlyOnceS2MsgAsync with Tagged: the trace has {@code tag} and the sync messages' {@code tags}. */
    private final boolean tagged;
    private final long te;
    private final Factory factory;
    private final ClientId client;
    private final int w;
    private final boolean allowDup;
    private final List<ServerId> servers = new ArrayList<>();
    private final Set<ServerId> origins = new TreeSet<>();
    private final Map<ServerId, ManualEoClock> clocks = new TreeMap<>();
    private final Map<ServerId, S2Server> cores = new TreeMap<>();
    private final Map<ServerId, ServerStore> stores = new TreeMap<>();
    private final Map<ServerId, InMemoryOperationLog.Disk> disks = new TreeMap<>();
    private final InMemoryOperationLog.Disk clientDisk = new InMemoryOperationLog.Disk("client");
    private ClientStore clientStore = ClientStore.inMemory(clientDisk, ClientStore.journal());
    private ClientCore clientCore;
    /** The sync messages on their way, by "type|from|to". */
    private final Map<String, EoMessage> snet = new TreeMap<>();
    /** Async: the replicas on their way, by receiver and the trace's note (with its incarnation). */
    private final Map<String, EoMessage.Replica> rnet = new TreeMap<>();
    private final Map<String, JsonNode> rnetNotes = new TreeMap<>();

    S2MsgCores(boolean async, ObjectNode constants, Factory factory) {
        this.async = async;
        this.te = async ? ASYNC_TE : UNTIMED_TE;
        this.factory = factory;
        this.client = ClientId.of(required(constants, "Client").asText());
        this.w = required(constants, "W").asInt();
        this.allowDup = constants.path("AllowDup").asBoolean(false);
        if (async && !required(constants, "Settle").asBoolean()) {
            throw new IllegalArgumentException("the trace has Settle = FALSE: ExactlyOnceS2MsgAsync without the fix"
                    + " is the cores before it, which S2Server no longer is; replay needs Settle = TRUE");
        }
        this.tagged = async && constants.path("Tagged").asBoolean(false);
        if (async && !tagged) {
            throw new IllegalArgumentException("the trace has Tagged = " + constants.path("Tagged").asText("(unset)")
                    + ": ExactlyOnceS2MsgAsync without rule \"tag\" is the cores before it, which S2Server no longer"
                    + " is (its removals name their incarnation); replay needs Tagged = TRUE");
        }
        required(constants, "Servers").forEach(s -> servers.add(ServerId.of(s.asText())));
        required(constants, "Origins").forEach(x -> origins.add(ServerId.of(x.asText())));
        servers.sort(null);
        for (ServerId s : servers) {
            clocks.put(s, new ManualEoClock(0));
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

    private S2Server newServer(ServerId s) {
        ServerCore core = factory.server(new ServerConfig(s, client, new TreeSet<>(servers), te), clocks.get(s), w,
                async, stores.get(s).load());
        if (!(core instanceof S2Server s2)) {
            throw new IllegalStateException("the factory built a " + core.getClass().getSimpleName() + " for " + s
                    + ", not an S2Server");
        }
        return s2;
    }

    private ClientCore newClient() {
        return Cores.Factory.REAL.client("ExactlyOnceS2", client, w, 0,
                clientStore.stableOr(new ClientStableState.Streams(new TreeMap<>())));
    }

    // ---- steps ---------------------------------------------------------------------------------

    /** Performs one trace action on the cores; returns mismatches in the step's own outcome. */
    List<Mismatch> step(String action, ObjectNode p) {
        if (!async) {
            clocks.values().forEach(c -> c.advance(te + 1));
        }
        List<Mismatch> out = new ArrayList<>();
        switch (action) {
            case "Init", "Lose" -> {
                // Init: the cores were built; Lose: the network lost a note or ack, no core call.
            }
            case "CreateNote" -> out.addAll(create(server(p), p.get("note")));
            case "ReceiveReplica" -> {
                String key = replicaKey(server(p), p.get("note"));
                EoMessage.Replica r = allowDup ? rnet.get(key) : rnet.remove(key);
                if (r == null) {
                    throw new IllegalStateException("no replica of " + p.get("note") + " to " + server(p) + " in flight");
                }
                if (!allowDup) {
                    rnetNotes.remove(key);
                }
                ServerStep step = carryOut(server(p), cores.get(server(p)).receiveReplica(r));
                out.addAll(Mismatch.compare("ReceiveReplica.verdict", p.get("verdict"), F.textNode(step.outcome())));
            }
            case "LoseReplica" -> {
                String key = replicaKey(server(p), p.get("note"));
                rnetNotes.remove(key);
                if (rnet.remove(key) == null) {
                    out.add(new Mismatch("LoseReplica", "a replica of " + p.get("note") + " in flight", "none"));
                }
            }
            case "SettleNumber" -> {
                long k = p.get("seq").asLong();
                S2Server core = cores.get(server(p));
                if (!waitUntil(server(p), () -> core.settled(k), te)) {
                    out.add(new Mismatch("SettleNumber", server(p) + "." + k + " settled within T_e = " + te,
                            "still waiting " + te + " ticks later"));
                }
            }
            case "Connect" -> clientCore.connect(server(p));
            case "Disconnect" -> clientCore.disconnect();
            case "ClientCrash" -> {
                clientDisk.crash();
                clientStore = ClientStore.inMemory(clientDisk, ClientStore.journal());
                clientCore = newClient();
            }
            case "ServerCrash" -> {
                ServerId s = server(p);
                if (async) {
                    clocks.get(s).advance(1); // the restart's waits start at a time of their own
                }
                disks.get(s).crash();
                stores.put(s, ServerStore.inMemory(disks.get(s), STORE_OPTIONS));
                cores.put(s, newServer(s));
            }
            case "StartSession" -> expect(out, action, "started", carryOut(server(p), cores.get(server(p)).startSession()));
            case "SendNote" -> expect(out, action, "sent", carryOut(server(p), cores.get(server(p)).sendNote(note(p))));
            case "ReceiveAck" -> expect(out, action, "delivered", carryOut(server(p),
                    cores.get(server(p)).receiveAck(new EoMessage.NoteAck(client, server(p), note(p)))));
            case "Timeout" -> expect(out, action, "aborted", carryOut(server(p), cores.get(server(p)).timeout()));
            case "ReceiveNote" -> {
                ClientStep step = clientCore.receiveNote(new EoMessage.NoteDelivery(server(p), client,
                        new Note(note(p), client, "")));
                commit(step);
                out.addAll(Mismatch.compare("ReceiveNote.verdict", p.get("verdict"), F.textNode(step.verdict().specName())));
            }
            case "StartSync" -> out.addAll(startSync(server(p), p.get("round").asLong()));
            case "HandleSync" -> out.addAll(deliverSync(server(p), peer(p), p.get("round").asLong(), true));
            case "ReceiveSyncReply" -> out.addAll(deliverSync(server(p), peer(p), p.get("round").asLong(), false));
            case "LoseSync" -> {
                String key = p.get("type").asText() + "|" + p.get("from").asText() + "|" + p.get("to").asText();
                if (snet.remove(key) == null) {
                    out.add(new Mismatch("LoseSync", "a " + key + " message in flight", "none"));
                }
            }
            default -> throw new IllegalArgumentException("no Strategy 2 core call for action " + action);
        }
        return out;
    }

    private static void expect(List<Mismatch> out, String action, String outcome, ServerStep step) {
        out.addAll(Mismatch.compare(action + ".outcome", F.textNode(outcome), F.textNode(step.outcome())));
    }

    /** Moves s's clock one tick at a time, at most {@code ticks}, until {@code done}; whether it came. */
    private boolean waitUntil(ServerId s, BooleanSupplier done, long ticks) {
        for (long t = 0; t < ticks && !done.getAsBoolean(); t++) {
            clocks.get(s).advance(1);
        }
        return done.getAsBoolean();
    }

    private List<Mismatch> create(ServerId x, JsonNode note) {
        S2Server core = cores.get(x);
        List<Mismatch> out = new ArrayList<>();
        if (async) {
            clocks.get(x).advance(1); // each number's wait starts at a time of its own
            // The spec's Condition 1 stands for the T_e wait after the confirmations: let it pass.
            waitUntil(x, core::mayCreate, te + 1);
        }
        ServerStep step = carryOut(x, core.createNote(Optional.empty(), "note " + note));
        expect(out, "CreateNote", "created " + Cores.noteId(note).text(), step);
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s && s.message() instanceof EoMessage.Replica r) {
                if (async) {
                    rnet.put(replicaKey(r.to(), note), r);
                    rnetNotes.put(replicaKey(r.to(), note), note);
                } else {
                    ServerStep stored = carryOut(r.to(), cores.get(r.to()).receiveReplica(r));
                    out.addAll(Mismatch.compare("CreateNote.replica." + r.to(), F.textNode("stored"),
                            F.textNode(stored.outcome())));
                }
            }
        }
        return out;
    }

    private static String replicaKey(ServerId to, JsonNode note) {
        return to.name() + "|" + note.toString();
    }

    /** StartSync(s): s's requests go on their way; the round they carry is the trace's. */
    private List<Mismatch> startSync(ServerId s, long round) {
        List<Mismatch> out = new ArrayList<>();
        ServerStep step = carryOut(s, cores.get(s).startSync());
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.SyncRequest req) {
                put("syncReq", s, req.to(), req);
                out.addAll(Mismatch.compare("StartSync.round", F.numberNode(round), F.numberNode(req.round())));
            }
        }
        return out;
    }

    /** HandleSync / ReceiveSyncReply at {@code to} of the message from {@code from}; a reply goes on its way. */
    private List<Mismatch> deliverSync(ServerId to, ServerId from, long round, boolean request) {
        String type = request ? "syncReq" : "syncRep";
        EoMessage m = snet.remove(type + "|" + from.name() + "|" + to.name());
        if (m == null) {
            throw new IllegalStateException("no " + type + " from " + from + " to " + to + " in flight");
        }
        List<Mismatch> out = new ArrayList<>();
        long carried = m instanceof EoMessage.SyncRequest q ? q.round() : ((EoMessage.SyncReply) m).round();
        out.addAll(Mismatch.compare(type + ".round", F.numberNode(round), F.numberNode(carried)));
        S2Server core = cores.get(to);
        ServerStep step = carryOut(to, request ? core.handleSync((EoMessage.SyncRequest) m)
                : core.receiveSyncReply((EoMessage.SyncReply) m));
        expect(out, request ? "HandleSync" : "ReceiveSyncReply", request ? "syncReplied" : "syncMerged", step);
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.SyncReply reply) {
                put("syncRep", to, reply.to(), reply);
            }
        }
        return out;
    }

    private void put(String type, ServerId from, ServerId to, EoMessage m) {
        if (snet.put(type + "|" + from.name() + "|" + to.name(), m) != null) {
            throw new IllegalStateException("a second " + type + " from " + from + " to " + to
                    + " on its way: the specs allow one (a server's own sync is not on the way when it starts one)");
        }
    }

    private ServerStep carryOut(ServerId s, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Record r) {
                S2Server core = cores.get(s);
                stores.get(s).save(r, core::durable);
            }
        }
        return step;
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

    private static ServerId peer(ObjectNode p) {
        return ServerId.of(p.get("peer").asText());
    }

    private static NoteId note(ObjectNode p) {
        return Cores.note(p);
    }

    // ---- comparison ----------------------------------------------------------------------------

    /** The spec variables compared as they are (sets sorted, the ghost inc dropped). */
    private Set<String> plainFields() {
        Set<String> f = new TreeSet<>(List.of("conn", "K", "sess", "ctr", "R", "conf", "removed", "round", "issued",
                "seen", "snet"));
        if (async) {
            f.addAll(List.of("rnet", "settled"));
        }
        if (tagged) {
            f.add("tag");
        }
        return f;
    }

    /**
     * The trace's state in the form {@link #abstractState} gives: the plain fields normalized, and
     * {@code entered[s][x][k]} (the number at s of the note Nth(x, k), 0 if not in K) as the core
     * keeps it, wire id x.(k mod W) -> number, for the notes in K.
     */
    Map<String, JsonNode> expected(ObjectNode state) {
        Map<String, JsonNode> m = ExactlyOnceReplayer.expected(state, plainFields());
        ObjectNode entered = F.objectNode();
        for (ServerId s : servers) {
            ObjectNode numbers = F.objectNode();
            state.get("entered").get(s.name()).fields().forEachRemaining(byOrigin ->
                    byOrigin.getValue().fields().forEachRemaining(e -> {
                        if (e.getValue().asLong() != 0) {
                            numbers.put(byOrigin.getKey() + "." + Long.parseLong(e.getKey()) % w, e.getValue().asLong());
                        }
                    }));
            entered.set(s.name(), numbers);
        }
        m.put("entered", ExactlyOnceReplayer.normalize(entered));
        if (tagged) {
            // The core keeps the issue number of a held note too (the one its replica carried); the
            // spec has it as the note's Ord(i) = inc * W + seq.
            ObjectNode held = F.objectNode();
            for (ServerId s : servers) {
                ObjectNode issues = F.objectNode();
                for (JsonNode i : state.get("K").get(s.name())) {
                    issues.put(i.get("server").asText() + "." + i.get("seq").asLong(),
                            i.get("inc").asLong() * w + i.get("seq").asLong());
                }
                held.set(s.name(), issues);
            }
            m.put("issuesHeld", ExactlyOnceReplayer.normalize(held));
        }
        return m;
    }

    Map<String, JsonNode> abstractState() {
        Map<String, JsonNode> m = new TreeMap<>();
        m.put("conn", F.textNode(clientCore.conn().map(ServerId::name).orElse("none")));
        ObjectNode k = F.objectNode(), sess = F.objectNode(), ctr = F.objectNode(), conf = F.objectNode(),
                removed = F.objectNode(), round = F.objectNode(), issued = F.objectNode(), seen = F.objectNode(),
                entered = F.objectNode(), settled = F.objectNode(), r = F.objectNode();
        for (ServerId s : servers) {
            S2Server c = cores.get(s);
            ServerDurableState d = c.durable();
            k.set(s.name(), ids(d.k().keySet()));
            ObjectNode session = F.objectNode();
            session.put("active", c.active());
            ArrayNode pending = F.arrayNode();
            c.pending().ifPresent(i -> pending.add(id(i)));
            session.set("pending", pending);
            sess.set(s.name(), session);
            ctr.put(s.name(), d.ctr());
            ObjectNode byPeer = F.objectNode();
            for (ServerId t : servers) {
                ArrayNode seqs = F.arrayNode();
                if (!t.equals(s)) {
                    c.confirmedBy(t).forEach(seqs::add);
                }
                byPeer.set(t.name(), seqs);
            }
            conf.set(s.name(), byPeer);
            removed.set(s.name(), ids(d.removed()));
            round.put(s.name(), d.round());
            ObjectNode iss = F.objectNode();
            ArrayNode done = F.arrayNode();
            for (long seq = 0; seq < w; seq++) {
                iss.put(Long.toString(seq), d.issued().getOrDefault(seq, -1L));
                if (c.settled(seq)) {
                    done.add(seq);
                }
            }
            issued.set(s.name(), iss);
            settled.set(s.name(), done);
            seen.put(s.name(), d.seen());
            ObjectNode numbers = F.objectNode();
            d.entered().forEach((i, n) -> numbers.put(i.text(), n));
            entered.set(s.name(), numbers);
            r.put(s.name(), ((S2Client) clientCore).lastAccepted(s));
        }
        m.put("K", ExactlyOnceReplayer.normalize(k));
        m.put("sess", ExactlyOnceReplayer.normalize(sess));
        m.put("ctr", ctr);
        m.put("R", r);
        m.put("conf", ExactlyOnceReplayer.normalize(conf));
        m.put("removed", ExactlyOnceReplayer.normalize(removed));
        m.put("round", round);
        m.put("issued", ExactlyOnceReplayer.normalize(issued));
        m.put("seen", seen);
        m.put("entered", ExactlyOnceReplayer.normalize(entered));
        m.put("snet", ExactlyOnceReplayer.normalize(syncsInFlight()));
        if (async) {
            ArrayNode replicas = F.arrayNode();
            rnet.forEach((key, rep) -> {
                ObjectNode o = F.objectNode();
                o.set("note", rnetNotes.get(key));
                o.put("to", rep.to().name());
                replicas.add(o);
            });
            m.put("rnet", ExactlyOnceReplayer.normalize(replicas));
            m.put("settled", ExactlyOnceReplayer.normalize(settled));
        }
        if (tagged) {
            m.put("tag", tags());
            ObjectNode held = F.objectNode();
            for (ServerId s : servers) {
                ServerDurableState d = cores.get(s).durable();
                ObjectNode issues = F.objectNode();
                d.k().keySet().forEach(i -> {
                    Long issue = d.issues().get(i);
                    issues.set(i.text(), issue == null ? F.textNode("none") : F.numberNode(issue));
                });
                held.set(s.name(), issues);
            }
            m.put("issuesHeld", ExactlyOnceReplayer.normalize(held));
        }
        return m;
    }

    /**
     * The spec's {@code tag[s][x][k]} as the core holds it: its {@code issues} entry of wire id x.k
     * where x.k is not in its K (the incarnation its removal names), Never (-1) where it has none;
     * an entry left for an id neither held nor removed shows as a tag the spec does not have.
     */
    private ObjectNode tags() {
        ObjectNode tag = F.objectNode();
        for (ServerId s : servers) {
            ServerDurableState d = cores.get(s).durable();
            ObjectNode byOrigin = F.objectNode();
            for (ServerId x : origins) {
                ObjectNode bySeq = F.objectNode();
                for (long seq = 0; seq < w; seq++) {
                    NoteId id = NoteId.sequenced(x, seq);
                    bySeq.put(Long.toString(seq), d.k().containsKey(id) ? -1L : d.issues().getOrDefault(id, -1L));
                }
                byOrigin.set(x.name(), bySeq);
            }
            tag.set(s.name(), byOrigin);
        }
        return tag;
    }


    /** The sync messages on their way as the specs write them (EoMessage's fields, S3's d left out). */
    private ArrayNode syncsInFlight() {
        ArrayNode a = F.arrayNode();
        for (EoMessage msg : snet.values()) {
            ObjectNode o = F.objectNode();
            boolean request = msg instanceof EoMessage.SyncRequest;
            EoMessage.SyncRequest q = request ? (EoMessage.SyncRequest) msg : null;
            EoMessage.SyncReply p = request ? null : (EoMessage.SyncReply) msg;
            o.put("from", (request ? q.from() : p.from()).name());
            o.set("k", ids(request ? q.k() : p.k()));
            o.set("removed", ids(request ? q.removed() : p.removed()));
            o.put("round", request ? q.round() : p.round());
            o.put("seen", request ? q.seen() : p.seen());
            o.put("to", (request ? q.to() : p.to()).name());
            o.put("type", request ? "syncReq" : "syncRep");
            if (tagged) {
                // ExactlyOnceS2MsgAsync's Tags: a [server, seq, issue] per removal the message names.
                ArrayNode tags = F.arrayNode();
                (request ? q.tags() : p.tags()).forEach((id, issue) -> {
                    ObjectNode t = (ObjectNode) id(id);
                    t.put("issue", issue);
                    tags.add(t);
                });
                o.set("tags", tags);
            }
            a.add(o);
        }
        return a;
    }

    /**
     * ExactlyOnceS2Msg: after every step, each origin's Condition 1 gate ({@link S2Server#mayCreate})
     * must be open exactly where the core's part of the spec's MayUse is: the successor number never
     * used, or confirmed gone by every other server and not held by x. (~CopyOfSeq and ~AckOfSeq
     * are the network's, MaxNotes the model's.) Asked with the clock moved past T_e, as the next
     * step sees it (the untimed level). Async: not asked here, its clock is the settle wait's; its
     * CreateNote steps must succeed.
     */
    List<Mismatch> gate(JsonNode state) {
        if (async) {
            return List.of();
        }
        List<Mismatch> out = new ArrayList<>();
        for (ServerId x : origins) {
            long c = state.get("ctr").get(x.name()).asLong();
            long next = (c + 1) % w;
            boolean open = c + 1 < w;
            if (!open) {
                open = true;
                for (ServerId y : servers) {
                    if (!y.equals(x)) {
                        open &= contains(state.get("conf").get(x.name()).get(y.name()), next);
                    }
                }
                for (JsonNode i : state.get("K").get(x.name())) {
                    open &= !(i.get("server").asText().equals(x.name()) && i.get("seq").asLong() == next);
                }
            }
            clocks.get(x).advance(te + 1);
            out.addAll(Mismatch.compare("conditionOne[" + x.name() + "]", F.textNode(open ? "open" : "closed"),
                    F.textNode(cores.get(x).mayCreate() ? "open" : "closed")));
        }
        return out;
    }

    private static boolean contains(JsonNode seqs, long k) {
        for (JsonNode e : seqs) {
            if (e.asLong() == k) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every server's journal, reopened from its bytes, must give the core's durable state, and the
     * client's its R (as {@link Cores#storeMismatches}); the reopened stores replace the old ones.
     */
    List<Mismatch> storeMismatches() {
        List<Mismatch> out = new ArrayList<>();
        for (ServerId s : servers) {
            ServerStore reopened = ServerStore.inMemory(disks.get(s), STORE_OPTIONS);
            stores.put(s, reopened);
            ServerDurableState core = cores.get(s).durable();
            if (!reopened.load().equals(core)) {
                out.add(new Mismatch("store." + s + " (the journal reopened)", core.toString(), reopened.load().toString()));
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

    private static ArrayNode ids(Set<NoteId> ids) {
        ArrayNode a = F.arrayNode();
        ids.forEach(i -> a.add(id(i)));
        return a;
    }

    private static JsonNode id(NoteId i) {
        NoteId.Sequenced s = (NoteId.Sequenced) i;
        ObjectNode o = F.objectNode();
        o.put("seq", s.seq());
        o.put("server", s.server().name());
        return o;
    }
}
