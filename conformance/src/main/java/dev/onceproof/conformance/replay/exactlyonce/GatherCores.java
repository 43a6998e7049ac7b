package dev.onceproof.conformance.replay.exactlyonce;

import static dev.onceproof.conformance.replay.exactlyonce.ExactlyOnceReplayer.F;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.ConnectStep;
import dev.onceproof.exactlyonce.ConnectVerdict;
import dev.onceproof.exactlyonce.EoClock;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.GatherClient;
import dev.onceproof.exactlyonce.GatherConfig;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.GatherServer;
import dev.onceproof.exactlyonce.HistoryClient;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.Replication;
import dev.onceproof.exactlyonce.S5Client;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.store.GatherServerStore;
import dev.onceproof.exactlyonce.store.HistoryStore;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cores of one Strategy 4-6 trace (specs ExactlyOnceS4 ... S6, module ExactlyOnceGather): a
 * {@link GatherServer} per server over a {@link GatherServerStore} (ServerCrash rebuilds it from
 * what it made durable), the client core and the clock. {@link #step} is the core call of one trace
 * action; {@link #abstractState} is what the spec's variables say of the cores.
 *
 * <p>Mapping (the spec's names and fields, specs/CONVENTIONS.md; adapted here, not in the spec):
 * <ul>
 *   <li>a session's {@code sid} in the spec is the client connection's id ({@code connId}), so two
 *       sessions of one connection share it; the core numbers its sessions itself. The replayer
 *       keeps, per server, the spec sid of the core's current session and translates both ways;</li>
 *   <li>{@code snet} is the replayer's own model of the server network, fed only by what the cores
 *       send (a request from {@code reqD}, a reply with the D and time {@code replyD} put in it),
 *       so comparing it checks the cores' network-visible effects; a message handed to a core is
 *       built from the trace's parameters;</li>
 *   <li>{@code ADeliverOK(s, i)} is the core's {@code aDeliver} call, the client core's processing
 *       of the note and the core's {@code aDeliverOk}; the ghost {@code delivered} is what the
 *       client core processed, in order;</li>
 *   <li>{@code PurgeSync(s, t)} reads every server's D directly in the spec (its header: S3's
 *       {@code known}, "read directly"); the cores learn it from syncs: every other server's sync
 *       reaches s and t as knowledge ({@code learnSync}), then s and t exchange syncs built before
 *       either merges ({@code recvPurgeSync}), the spec's atomic exchange;</li>
 *   <li>time: each server runs on its own clock, the spec's {@code Clock(s) = now + ClockOffset[s]};
 *       the client's clock is {@code now} (H and T_r are on it). The cores get the trace's
 *       {@code Te} and, as their skew, half its {@code SkewAllowance} (the cores' margin is 2*skew),
 *       so their freshness window and margin are the spec's {@code Window} and
 *       {@code HistoryMargin};</li>
 *   <li>the {@code *Outcome} specs (ExactlyOnceOutcome): {@code ADeliverCall} is the core's
 *       {@code aDeliver} (and the client's processing when the trace's call succeeded), the
 *       outcome steps are {@code aDeliverOk}/{@code aDeliverErr} for the session the core's log
 *       names, and {@code DeferReplyD}, {@code DeferSync}, {@code DeferEndGather} ask the core,
 *       which must answer "deferred" / "unresolved" ({@code DeferSync} also asks each peer's
 *       {@code sync(t)}), and {@code DeferPurgeSync(s, t)} asks s for its half of a PurgeSync,
 *       {@code sync(t)}, which must answer "deferred"; {@code att} is compared as each server's
 *       unresolved note, since the core cannot know an outcome before it arrives.</li>
 * </ul>
 */
final class GatherCores {

    /** Builds the cores; {@link #REAL} is the library's, tests pass a broken one. */
    interface Factory {
        GatherServer server(String spec, GatherConfig config, EoClock clock, GatherDurableState durable);

        /**
         * @param lastEnd Strategy 5: when the last connection ended, if the client knows it (after a
         *     crash the replayer passes the crash time, as the spec's lastEnd)
         */
        GatherClient client(String spec, ClientId id, EoClock clock, long tr, OptionalLong lastEnd,
                ClientHistory stored);

        Factory REAL = new Factory() {
            @Override
            public GatherServer server(String spec, GatherConfig config, EoClock clock, GatherDurableState durable) {
                StrategyConfig c = strategyOf(spec).config(config.client(), config.servers().servers(), config.te())
                        .times(config.tr(), config.tu(), config.skew());
                c = config.printedBoundary() ? c.withPrintedBoundary() : c;
                return (GatherServer) (config.plainDeliver() ? c.withPlainDeliver() : c).server(config.self(), clock,
                        durable);
            }

            @Override
            public GatherClient client(String spec, ClientId id, EoClock clock, long tr, OptionalLong lastEnd,
                    ClientHistory stored) {
                return (GatherClient) strategyOf(spec).config(id, new TreeSet<>(), 0).times(tr, 0, 0).client(clock,
                        StrategyConfig.ClientMemory.fresh().withHistory(stored).withLastEnd(lastEnd));
            }
        };
    }

    /** The strategy each spec models: ExactlyOnceS4Deliver is Strategy 4 over the plain Deliver. */
    static Strategy strategyOf(String spec) {
        return Strategy.valueOf("S" + spec.charAt("ExactlyOnceS".length()));
    }

    static final Set<String> GATHER_SPECS = Set.of("ExactlyOnceS4", "ExactlyOnceS5", "ExactlyOnceS6",
            "ExactlyOnceS4Deliver", "ExactlyOnceS4Outcome", "ExactlyOnceS5Outcome", "ExactlyOnceS6Outcome");

    /**
     * The strategy spec a spec refines: ExactlyOnceS5Outcome is ExactlyOnceS5 with aDeliver's
     * outcome as steps of its own (module ExactlyOnceOutcome).
     */
    static String base(String spec) {
        return spec.endsWith("Outcome") ? spec.substring(0, spec.length() - "Outcome".length()) : spec;
    }

    /** The specs' encodings (ExactlyOnceTimed, ExactlyOnceS6): Never, Open, Unknown. */
    private static final long NEVER = -1;
    private static final long OPEN = -2;
    private static final long UNKNOWN = -3;

    private final String spec;
    /** The strategy spec ({@link #base}): what decides the time fields and the client. */
    private final String base;
    private final Factory factory;
    private final ClientId client;
    private final List<ServerId> servers = new ArrayList<>();
    private final boolean allowDup;
    /** The spec's Cut: servers partitioned from everyone (L252); a send to or from one is lost. */
    private final Set<ServerId> cut = new TreeSet<>();
    private final boolean printedBoundary;
    /** Strategy 5's T_r (the constant Tr). */
    private final long tr;
    /** The spec's now: the client's clock (H and T_r are on it, footnote 3, Z18). */
    private final ManualEoClock clock = new ManualEoClock(0);
    /** Each server's clock, now + ClockOffset[s] (ExactlyOnceTimed's Clock(s)). */
    private final Map<ServerId, ManualEoClock> clocks = new TreeMap<>();
    private final Map<ServerId, Long> offsets = new TreeMap<>();
    /** T_e of the cores: the spec's Te (0 where a model leaves it). */
    private final long te;
    /** The cores' skew (epsilon): half the spec's SkewAllowance, the cores' 2*skew. */
    private final long skew;
    private final Map<ServerId, GatherServer> cores = new TreeMap<>();
    /**
     * Each server's store: the real one over an in-memory journal (the codec's bytes; checkpoints
     * due once the journal passes half the last one, or 64 bytes, so a trace's short runs recover
     * from checkpoints and records both). After every step each is reopened, decoding its
     * checkpoint and records, and must give the core's durable state ({@link #storeMismatches}).
     */
    private final Map<ServerId, InMemoryOperationLog.Disk> disks = new TreeMap<>();
    private final Map<ServerId, GatherServerStore> stores = new TreeMap<>();
    static final Journal.Options STORE = new Journal.Options(Journal.Commit.GROUP, 0.5, 64);
    /** Strategy 6's client history H, a journal on a disk of its own that a client restart reads back. */
    private final InMemoryOperationLog.Disk historyDisk = new InMemoryOperationLog.Disk("client history");
    private HistoryStore historyStore = HistoryStore.inMemory(historyDisk);
    private GatherClient clientCore;
    /** The spec's connId: connections so far. */
    private long connId;
    /** Per server: the core's session id -> the spec's sid it serves. */
    private final Map<ServerId, Map<Long, Long>> sids = new HashMap<>();
    /** The replayer's model of the spec's snet: messages as the trace writes them. */
    private final Set<ObjectNode> snet = new LinkedHashSet<>();
    /** The ghost delivered: what the client core processed, in order. */
    private final ArrayNode delivered = F.arrayNode();

    GatherCores(String spec, ObjectNode constants, Factory factory) {
        if (!GATHER_SPECS.contains(spec)) {
            throw new IllegalArgumentException("no server-centric exactly-once spec named " + spec);
        }
        this.spec = spec;
        this.base = base(spec);
        this.factory = factory;
        this.client = ClientId.of(required(constants, "Client").asText());
        required(constants, "Servers").forEach(s -> servers.add(ServerId.of(s.asText())));
        servers.sort(null);
        this.allowDup = constants.path("AllowDup").asBoolean(false);
        constants.path("Cut").forEach(s -> cut.add(ServerId.of(s.asText())));
        this.printedBoundary = constants.path("Boundary").asText("corrected").equals("faithful");
        this.tr = base.equals("ExactlyOnceS5") ? required(constants, "Tr").asLong() : 0;
        this.te = constants.path("Te").asLong(0);
        long allowance = constants.path("SkewAllowance").asLong(0);
        if (allowance % 2 != 0) {
            throw new IllegalArgumentException("the trace's SkewAllowance " + allowance + " is odd: the cores' "
                    + "margin is 2*skew, so replay needs an even allowance");
        }
        this.skew = allowance / 2;
        for (ServerId s : servers) {
            long off = constants.path("ClockOffset").path(s.name()).asLong(0);
            offsets.put(s, off);
            clocks.put(s, new ManualEoClock(off));
        }
        if (base.equals("ExactlyOnceS6")) {
            // The spec's fresh device has connected nowhere: H = Never everywhere.
            historyStore.save(new ClientEffect.RecordHistory(ClientHistory.never()));
        }
        for (ServerId s : servers) {
            disks.put(s, new InMemoryOperationLog.Disk("server " + s.name()));
            stores.put(s, GatherServerStore.inMemory(disks.get(s), STORE));
            cores.put(s, newServer(s));
            sids.put(s, new HashMap<>());
        }
        clientCore = newClient(OptionalLong.empty());
    }

    private static JsonNode required(ObjectNode c, String name) {
        JsonNode v = c.get(name);
        if (v == null) {
            throw new IllegalArgumentException("the trace header's constants have no " + name);
        }
        return v;
    }

    private GatherConfig config(ServerId s) {
        StrategyConfig c = strategyOf(spec).config(client, new TreeSet<>(servers), te)
                .times(tr, base.equals("ExactlyOnceS5") ? 1 : 0, skew);
        c = printedBoundary ? c.withPrintedBoundary() : c;
        return (plainDeliver() ? c.withPlainDeliver() : c).gatherConfig(s);
    }

    private GatherServer newServer(ServerId s) {
        return stores.get(s).restore(state -> factory.server(spec, config(s), clocks.get(s), state));
    }

    private GatherClient newClient(OptionalLong lastEnd) {
        // A client (re)start reads H back from its journal, as a restarted process does.
        historyDisk.crash();
        historyStore = HistoryStore.inMemory(historyDisk);
        return factory.client(spec, client, clock, tr, lastEnd, historyStore.load().history());
    }

    // ---- steps ---------------------------------------------------------------------------------

    /**
     * Performs one trace action on the cores; returns mismatches in the step's own outcome, then
     * any server whose store, reopened, does not give its core's durable state.
     */
    List<Mismatch> step(String action, ObjectNode p) {
        List<Mismatch> out = coreStep(action, p);
        out.addAll(storeMismatches());
        return out;
    }

    /**
     * Replay checks the store: each server's log is reopened (its checkpoint and records decoded,
     * the records applied) and the state it recovers must equal what the core holds. A change the
     * core made but did not journal, a codec that loses a field, or an operation that applies wrong
     * shows here, at the step that made it.
     */
    private List<Mismatch> storeMismatches() {
        List<Mismatch> out = new ArrayList<>();
        for (ServerId s : servers) {
            GatherServerStore reopened;
            try {
                reopened = GatherServerStore.inMemory(disks.get(s), STORE);
            } catch (RuntimeException e) {
                out.add(new Mismatch("store[" + s.name() + "]", "a log that reopens", e.getMessage()));
                continue;
            }
            stores.put(s, reopened);
            GatherDurableState recovered = reopened.load();
            GatherDurableState held = cores.get(s).durable();
            if (!recovered.equals(held)) {
                out.add(new Mismatch("store[" + s.name() + "]", "the core's durable state " + held,
                        "recovered from its journal " + recovered));
            } else if (reopened.claimCheckpoint(reopened.lastSeq())) {
                // Checkpoints only here, after the check and from the state it vouched for: one
                // taken from core.durable() inside the step would carry a change the journal
                // missed and hide it from the check.
                reopened.checkpoint(recovered, reopened.lastSeq());
            }
        }
        return out;
    }

    private List<Mismatch> coreStep(String action, ObjectNode p) {
        List<Mismatch> out = new ArrayList<>();
        switch (action) {
            case "Init" -> {
                // The cores were built.
            }
            case "CreateNote" -> out.addAll(create(p));
            case "Connect" -> {
                ConnectStep step = clientCore.connectTo(server(p));
                carryOutClient(step.effects());
                out.addAll(Mismatch.compare("Connect.verdict", F.textNode(ConnectVerdict.CONNECTED.specName()),
                        F.textNode(step.verdict().specName())));
                connId++;
            }
            case "Disconnect" -> {
                endConnSession();
                carryOutClient(clientCore.endConnection());
            }
            case "ClientCrash" -> {
                endConnSession();
                clientCore.crash();
                // Strategy 5: the rebooted client does not know when its last connection ended (the
                // timer is volatile) and waits T_r from the reboot (S5Client.rebooted), as the spec's
                // ClientCrash (a crash in a connection ends it now) and ClientCrashAway (a crash while
                // away forgets the end) both set lastEnd to now.
                clientCore = newClient(clientCore instanceof S5Client
                        ? OptionalLong.of(clock.now()) : OptionalLong.empty());
            }
            case "ServerCrash" -> {
                disks.get(server(p)).crash();
                stores.put(server(p), GatherServerStore.inMemory(disks.get(server(p)), STORE));
                cores.put(server(p), newServer(server(p)));
                if (plainDeliver()) {
                    // The plain Deliver's outcome dies with the server: taken as failed, the risky
                    // reading aDeliver's permanent log (L193) exists to avoid.
                    GatherServer c = cores.get(server(p));
                    c.unresolved().forEach((i, session) -> run(server(p), x -> x.aDeliverErr(session, i)));
                }
            }
            case "SendNote" -> out.addAll(sendNote(server(p), Cores.note(p)));
            case "ReceiveNote" -> out.addAll(receiveNote(server(p), Cores.note(p)));
            case "ReceiveAck" -> out.addAll(receiveAck(server(p), Cores.note(p)));
            case "Timeout" -> out.addAll(timeout(server(p), Cores.note(p)));
            case "StartSession" -> out.addAll(startSession(server(p), p));
            case "ReqD" -> out.addAll(reqD(server(p), peer(p), p.get("sid").asLong()));
            case "ReplyD" -> out.addAll(replyD(server(p), peer(p), p));
            case "RecvD" -> out.addAll(recvD(server(p), peer(p), p));
            case "GatherFail" -> expect(out, action, "aborted", run(server(p), c -> c.gatherFail()));
            case "EndGather" -> out.addAll(endGather(server(p), p));
            case "ADeliverOK" -> out.addAll(outcome()
                    ? outcomeOf(server(p), Cores.note(p), true) : aDeliver(server(p), Cores.note(p), true));
            case "ADeliverErr" -> out.addAll(outcome()
                    ? outcomeOf(server(p), Cores.note(p), false) : aDeliver(server(p), Cores.note(p), false));
            case "ADeliverCall" -> out.addAll(call(server(p), Cores.note(p), p.get("ok").asBoolean()));
            case "DeferReplyD" -> expect(out, action, "deferred", run(server(p),
                    c -> c.replyD(new EoMessage.DRequest(peer(p), server(p), client, Math.max(1, p.get("sid").asLong())))));
            case "DeferEndGather" -> expect(out, action, "unresolved", run(server(p), GatherServer::endGather));
            case "DeferSync" -> out.addAll(deferSync(server(p)));
            case "DeferPurgeSync" -> expect(out, action, "deferred", run(server(p), c -> c.sync(peer(p))));
            case "PurgeSync" -> out.addAll(purgeSync(server(p), peer(p), p));
            case "Lose" -> out.addAll(lose(p));
            case "Tick" -> {
                clock.set(p.get("now").asLong());
                clocks.forEach((s, c) -> c.set(clock.now() + offsets.get(s)));
            }
            case "PushSync" -> out.addAll(sendSync(server(p), "PushSync", p));
            case "PeriodicSync" -> out.addAll(sendSync(server(p), "PeriodicSync", p));
            case "RecvSync" -> out.addAll(recvSync(server(p), peer(p), p));
            case "ClientLoseH" -> {
                ((HistoryClient) clientCore).loseHistory();
                historyStore.save(new ClientEffect.RecordHistory(ClientHistory.unknown()));
            }
            default -> throw new IllegalArgumentException("no server-centric exactly-once core call for action "
                    + action);
        }
        return out;
    }

    // ---- ExactlyOnceS4Deliver: the plain Deliver in place of aDeliver (3.3.1's impossibility) ----

    /**
     * ExactlyOnceS4Deliver replays the cores under the plain Deliver of 3.1, the transport 3.3.1
     * shows cannot give exactly-once: the note goes out with the aDeliver attempt logged, the
     * client's ack is the success, a timeout the error. A Deliver is outstanding for a whole round
     * trip, and the cores then hold back their D (replyD, sync: "deferred"), a safeguard of the
     * aDeliver contract the variant's spec lacks; for this spec only, the cores are built with
     * {@link GatherConfig#withPlainDeliver} (that safeguard off) so the trace, and its duplicate,
     * can be followed.
     */
    private boolean plainDeliver() {
        return spec.equals("ExactlyOnceS4Deliver");
    }

    /** The client network (spec {@code net}): notes and acks as the base's Msg records. */
    private final Set<ObjectNode> clientNet = new LinkedHashSet<>();
    /** The note of each note message in net. */
    private final Map<NoteId, Note> inFlight = new HashMap<>();

    private static ObjectNode netMsg(String type, String from, String to, NoteId i) {
        ObjectNode m = F.objectNode();
        m.put("from", from);
        m.put("note", i.text());
        m.put("to", to);
        m.put("type", type);
        return m;
    }

    /** SendNote(s, i): the core's aDeliver call, its note put in net (the attempt is logged first). */
    private List<Mismatch> sendNote(ServerId s, NoteId i) {
        GatherServer core = cores.get(s);
        List<Mismatch> out = new ArrayList<>();
        ServerStep call = run(s, c -> c.aDeliver(core.session(), i));
        expect(out, "SendNote", "calling", call);
        for (ServerEffect e : call.effects()) {
            if (e instanceof ServerEffect.ADeliver a) {
                clientNet.add(netMsg("note", s.name(), client.name(), i));
                inFlight.put(i, a.note());
            }
        }
        return out;
    }

    /** ReceiveNote(m): the stateless client processes it and acks it. */
    private List<Mismatch> receiveNote(ServerId s, NoteId i) {
        ObjectNode m = netMsg("note", s.name(), client.name(), i);
        List<Mismatch> out = new ArrayList<>();
        if (!clientNet.contains(m)) {
            out.add(new Mismatch("ReceiveNote.message", m.toString(), "(not in net)"));
        }
        if (!allowDup) {
            clientNet.remove(m);
        }
        Note note = inFlight.getOrDefault(i, new Note(i, client, i.text()));
        ClientStep step = clientCore.receiveNote(new EoMessage.NoteDelivery(s, client, note));
        carryOutClient(step.effects());
        if (step.acknowledges()) {
            clientNet.add(netMsg("ack", client.name(), s.name(), i));
        }
        return out;
    }

    /** ReceiveAck(m): Deliver returned success: the core's aDeliverOk for the attempt. */
    private List<Mismatch> receiveAck(ServerId s, NoteId i) {
        ObjectNode m = netMsg("ack", client.name(), s.name(), i);
        List<Mismatch> out = new ArrayList<>();
        if (!clientNet.contains(m)) {
            out.add(new Mismatch("ReceiveAck.message", m.toString(), "(not in net)"));
        }
        if (!allowDup) {
            clientNet.remove(m);
        }
        Long session = cores.get(s).unresolved().get(i);
        if (session == null) {
            out.add(new Mismatch("ReceiveAck.attempt", '"' + i.text() + '"', "(no call awaits its outcome)"));
            return out;
        }
        expect(out, "ReceiveAck", "delivered", run(s, c -> c.aDeliverOk(session, i)));
        return out;
    }

    /** Timeout(s): Deliver failed (as far as s can tell): the core's aDeliverErr, {@code {abort;}}. */
    private List<Mismatch> timeout(ServerId s, NoteId i) {
        List<Mismatch> out = new ArrayList<>();
        Long session = cores.get(s).unresolved().get(i);
        if (session == null) {
            out.add(new Mismatch("Timeout.attempt", '"' + i.text() + '"', "(no call awaits its outcome)"));
            return out;
        }
        expect(out, "Timeout", "failed", run(s, c -> c.aDeliverErr(session, i)));
        // The spec's Timeout aborts s's session, whichever it is.
        run(s, GatherServer::endSession);
        return out;
    }

    /**
     * Strategies 5-6 (ExactlyOnceTimed's EndConnSession): the server the client was connected to
     * sees the connection close and ends its session. Strategy 4's spec keeps the session (it shows
     * a dead session cannot deliver), so nothing happens there.
     */
    private void endConnSession() {
        if (!base.startsWith("ExactlyOnceS4")) {
            clientCore.conn().ifPresent(s -> run(s, GatherServer::endSession));
        }
    }

    private static void expect(List<Mismatch> out, String action, String outcome, ServerStep step) {
        out.addAll(Mismatch.compare(action + ".outcome", F.textNode(outcome), F.textNode(step.outcome())));
    }

    private List<Mismatch> create(ObjectNode p) {
        NoteId id = Cores.note(p);
        ServerId origin = servers.get(0);
        ServerStep step = run(origin, c -> c.createNote(id, id.text()));
        List<Mismatch> out = new ArrayList<>();
        // The replication round (replica, ack, commit) to its end at once: the spec's atomic CreateNote.
        for (Replication.Hop h : Replication.atOnce(step, cores::get)) {
            save(h.server(), h.step());
            if (h.message() instanceof EoMessage.Replica r) {
                out.addAll(Mismatch.compare("CreateNote.replica." + r.to(), F.textNode("stored"),
                        F.textNode(h.step().outcome())));
            }
        }
        return out;
    }

    private List<Mismatch> startSession(ServerId s, ObjectNode p) {
        ServerStep step = clientCore instanceof HistoryClient c6
                ? run(s, c -> c.startSession(new EoMessage.HistoryUpload(client, s, c6.history())))
                : run(s, GatherServer::startSession);
        List<Mismatch> out = new ArrayList<>();
        expect(out, "StartSession", "started", step);
        sids.get(s).put(cores.get(s).session(), p.get("sid").asLong());
        return out;
    }

    private List<Mismatch> reqD(ServerId s, ServerId t, long sid) {
        ServerStep step = run(s, c -> c.reqD(t));
        List<Mismatch> out = new ArrayList<>();
        expect(out, "ReqD", "requested", step);
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.DRequest q) {
                snet.add(msg("reqD", q.from(), q.to(), specSid(s, q.session()), F.arrayNode(), 0));
            }
        }
        return out;
    }

    private List<Mismatch> replyD(ServerId t, ServerId s, ObjectNode p) {
        long sid = p.get("sid").asLong();
        List<Mismatch> out = new ArrayList<>();
        ObjectNode request = msg("reqD", s, t, sid, F.arrayNode(), 0);
        if (!snet.contains(request)) {
            out.add(new Mismatch("ReplyD.request", request.toString(), "(not in snet)"));
        }
        ServerStep step = run(t, c -> c.replyD(new EoMessage.DRequest(s, t, client, Math.max(1, sid))));
        expect(out, "ReplyD", "replied", step);
        if (!allowDup) {
            snet.remove(request);
        }
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.DReply r) {
                snet.add(msg("replyD", t, s, sid, ids(r.d()), r.ts()));
            }
        }
        return out;
    }

    private List<Mismatch> recvD(ServerId s, ServerId t, ObjectNode p) {
        long sid = p.get("sid").asLong();
        TreeSet<NoteId> d = noteSet(p.get("d"));
        long ts = p.get("ts").asLong();
        List<Mismatch> out = new ArrayList<>();
        ObjectNode reply = msg("replyD", t, s, sid, ids(d), ts);
        if (!snet.contains(reply)) {
            out.add(new Mismatch("RecvD.reply", reply.toString(), "(not in snet)"));
        }
        long session = coreSession(s, sid);
        ServerStep step = run(s, c -> c.recvD(new EoMessage.DReply(t, s, client, Math.max(1, session), ts, d)));
        expect(out, "RecvD", "merged", step);
        if (!allowDup) {
            snet.remove(reply);
        }
        return out;
    }

    private List<Mismatch> endGather(ServerId s, ObjectNode p) {
        TreeSet<NoteId> before = new TreeSet<>(cores.get(s).k());
        ServerStep step = run(s, GatherServer::endGather);
        List<Mismatch> out = new ArrayList<>();
        expect(out, "EndGather", "delivering", step);
        before.removeAll(cores.get(s).k());
        out.addAll(Mismatch.compare("EndGather.purged", ExactlyOnceReplayer.normalize(p.get("purged")),
                ExactlyOnceReplayer.normalize(ids(before))));
        return out;
    }

    private List<Mismatch> aDeliver(ServerId s, NoteId i, boolean ok) {
        GatherServer core = cores.get(s);
        long session = core.session();
        String name = ok ? "ADeliverOK" : "ADeliverErr";
        List<Mismatch> out = new ArrayList<>();
        ServerStep call = run(s, c -> c.aDeliver(session, i));
        expect(out, name + ".call", "calling", call);
        if (!call.outcome().equals("calling")) {
            return out;
        }
        if (ok) {
            Note note = call.effects().stream().filter(e -> e instanceof ServerEffect.ADeliver)
                    .map(e -> ((ServerEffect.ADeliver) e).note()).findFirst().orElseThrow();
            ClientStep processed = clientCore.receiveNote(new EoMessage.NoteDelivery(s, client, note));
            carryOutClient(processed.effects());
            expect(out, name, "delivered", run(s, c -> c.aDeliverOk(session, i)));
        } else {
            expect(out, name, "failed", run(s, c -> c.aDeliverErr(session, i)));
        }
        return out;
    }

    // ---- ExactlyOnceOutcome: aDeliver's call and its outcome as separate steps ----------------

    /** Whether the spec has aDeliver's outcome as steps of its own (ExactlyOnceOutcome). */
    private boolean outcome() {
        return spec.endsWith("Outcome");
    }

    /**
     * ADeliverCall(s, i, ok): the core logs the attempt and calls aDeliver; the primitive processes
     * the note (ok) or fails, and the core learns which only at the outcome step.
     */
    private List<Mismatch> call(ServerId s, NoteId i, boolean ok) {
        GatherServer core = cores.get(s);
        long session = core.session();
        List<Mismatch> out = new ArrayList<>();
        ServerStep call = run(s, c -> c.aDeliver(session, i));
        expect(out, "ADeliverCall", "calling", call);
        if (ok && call.outcome().equals("calling")) {
            Note note = call.effects().stream().filter(e -> e instanceof ServerEffect.ADeliver)
                    .map(e -> ((ServerEffect.ADeliver) e).note()).findFirst().orElseThrow();
            carryOutClient(clientCore.receiveNote(new EoMessage.NoteDelivery(s, client, note)).effects());
        }
        return out;
    }

    /**
     * ADeliverOK(s) / ADeliverErr(s) of ExactlyOnceOutcome: the outcome of the attempt the core
     * logged reaches it, from the call's return or, after a crash, from the primitive's log.
     */
    private List<Mismatch> outcomeOf(ServerId s, NoteId i, boolean ok) {
        String name = ok ? "ADeliverOK" : "ADeliverErr";
        Long session = cores.get(s).unresolved().get(i);
        if (session == null) {
            return List.of(new Mismatch(name + ".attempt", '"' + i.text() + '"', "(no call awaits its outcome)"));
        }
        List<Mismatch> out = new ArrayList<>();
        expect(out, name, ok ? "delivered" : "failed",
                run(s, c -> ok ? c.aDeliverOk(session, i) : c.aDeliverErr(session, i)));
        return out;
    }

    /** The trace's att, as the cores can know it: each server's unresolved note (the outcome is unknown to it). */
    static ObjectNode attNotes(JsonNode att) {
        ObjectNode out = F.objectNode();
        att.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().path("note").asText()));
        return out;
    }

    /**
     * DeferSync(s): the core's periodic (S5) or push (S6) sync, {@code sync()}, and its sync to each
     * peer, {@code sync(t)}, must all answer "deferred": a runtime sends its periodic and push syncs
     * as one {@code sync(t)} per peer (GatherNodeMain), which a Strategy 5-6 peer takes into TS.
     */
    private List<Mismatch> deferSync(ServerId s) {
        List<Mismatch> out = new ArrayList<>();
        expect(out, "DeferSync", "deferred", run(s, GatherServer::sync));
        for (ServerId t : servers) {
            if (!t.equals(s)) {
                expect(out, "DeferSync.sync(" + t + ")", "deferred", run(s, c -> c.sync(t)));
            }
        }
        return out;
    }

    private List<Mismatch> purgeSync(ServerId s, ServerId t, ObjectNode p) {
        List<Mismatch> out = new ArrayList<>();
        for (ServerId u : servers) {
            if (!u.equals(s) && !u.equals(t)) {
                for (ServerId to : List.of(s, t)) {
                    EoMessage.DSync m = syncMessage(u, to, out);
                    if (m != null) {
                        run(to, c -> c.learnSync(m));
                    }
                }
            }
        }
        EoMessage.DSync st = syncMessage(s, t, out);
        EoMessage.DSync ts = syncMessage(t, s, out);
        TreeSet<NoteId> before = new TreeSet<>(cores.get(s).k());
        before.addAll(cores.get(t).k());
        if (st != null && ts != null) {
            expect(out, "PurgeSync." + t, "merged", run(t, c -> c.recvPurgeSync(st)));
            expect(out, "PurgeSync." + s, "merged", run(s, c -> c.recvPurgeSync(ts)));
        }
        return out;
    }

    private EoMessage.DSync syncMessage(ServerId from, ServerId to, List<Mismatch> out) {
        ServerStep step = run(from, c -> c.sync(to));
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.DSync m) {
                return m;
            }
        }
        out.add(new Mismatch("PurgeSync.sync." + from, "\"synced\"", '"' + step.outcome() + '"'));
        return null;
    }

    /** Java sync messages behind the snet entries of type "sync" (their K is not in the trace). */
    private final Map<ObjectNode, EoMessage.DSync> syncs = new HashMap<>();

    private boolean link(ServerId a, ServerId b) {
        return !cut.contains(a) && !cut.contains(b);
    }

    /** PushSync (S6) / PeriodicSync (S5): the core's syncs, to every server it can reach. */
    private List<Mismatch> sendSync(ServerId s, String name, ObjectNode p) {
        ServerStep step = run(s, GatherServer::sync);
        List<Mismatch> out = new ArrayList<>();
        expect(out, name, "synced", step);
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.DSync m
                    && link(m.from(), m.to())) {
                ObjectNode json = msg("sync", m.from(), m.to(), 0, ids(m.d()), m.ts());
                snet.add(json);
                syncs.put(json, m);
            }
        }
        out.addAll(Mismatch.compare(name + ".ts", p.get("ts"), F.numberNode(clocks.get(s).now())));
        return out;
    }

    private List<Mismatch> recvSync(ServerId t, ServerId s, ObjectNode p) {
        TreeSet<NoteId> d = noteSet(p.get("d"));
        long ts = p.get("ts").asLong();
        List<Mismatch> out = new ArrayList<>();
        ObjectNode json = msg("sync", s, t, 0, ids(d), ts);
        if (!snet.contains(json)) {
            out.add(new Mismatch("RecvSync.message", json.toString(), "(not in snet)"));
        }
        EoMessage.DSync m = syncs.getOrDefault(json, new EoMessage.DSync(s, t, client, ts, d, d));
        expect(out, "RecvSync", "merged", run(t, c -> c.recvSync(m)));
        if (!allowDup) {
            snet.remove(json);
        }
        return out;
    }

    private List<Mismatch> lose(ObjectNode p) {
        if (p.has("note")) {
            // The base's Lose of a note or ack in the client network (ExactlyOnceS4Deliver).
            ObjectNode n = netMsg(p.get("type").asText(), p.get("from").asText(), p.get("to").asText(),
                    Cores.note(p));
            return clientNet.remove(n) ? List.of() : List.of(new Mismatch("Lose.message", n.toString(), "(not in net)"));
        }
        ObjectNode m = msg(p.get("type").asText(), ServerId.of(p.get("from").asText()),
                ServerId.of(p.get("to").asText()), p.get("sid").asLong(), ids(noteSet(p.get("d"))),
                p.get("ts").asLong());
        if (!snet.remove(m)) {
            return List.of(new Mismatch("Lose.message", m.toString(), "(not in snet)"));
        }
        return List.of();
    }

    private interface Call {
        ServerStep on(GatherServer core);
    }

    /** One server step, its durable record saved (the ordering rule: before any send or call). */
    private ServerStep run(ServerId s, Call call) {
        return save(s, call.on(cores.get(s)));
    }

    /** Makes durable what a step of s's core recorded. */
    private ServerStep save(ServerId s, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.RecordGather r) {
                GatherServerStore store = stores.get(s);
                store.commit(store.append(r)); // checkpoints: see storeMismatches
            }
        }
        return step;
    }

    private void carryOutClient(List<ClientEffect> effects) {
        for (ClientEffect e : effects) {
            if (e instanceof ClientEffect.RecordHistory h) {
                historyStore.save(h);
            } else if (e instanceof ClientEffect.Record r) {
                r.processed().ifPresent(n -> delivered.add(n.id().text()));
            }
        }
    }

    private long specSid(ServerId s, long coreSession) {
        Long sid = sids.get(s).get(coreSession);
        return sid == null ? -coreSession : sid;
    }

    /** The core session serving spec sid {@code sid} at s now (the current one when it serves it). */
    private long coreSession(ServerId s, long sid) {
        long current = cores.get(s).session();
        if (current != 0 && specSid(s, current) == sid) {
            return current;
        }
        return sids.get(s).entrySet().stream().filter(e -> e.getValue() == sid).mapToLong(Map.Entry::getKey)
                .max().orElse(1);
    }

    private static ObjectNode msg(String type, ServerId from, ServerId to, long sid, ArrayNode d, long ts) {
        ObjectNode m = F.objectNode();
        m.set("d", ExactlyOnceReplayer.normalize(d));
        m.put("from", from.name());
        m.put("sid", sid);
        m.put("to", to.name());
        m.put("ts", ts);
        m.put("type", type);
        return m;
    }

    private static ServerId server(ObjectNode p) {
        return ServerId.of(p.get("server").asText());
    }

    private static ServerId peer(ObjectNode p) {
        return ServerId.of(p.get("peer").asText());
    }

    private static TreeSet<NoteId> noteSet(JsonNode a) {
        TreeSet<NoteId> out = new TreeSet<>();
        if (a != null) {
            a.forEach(n -> out.add(Cores.noteId(n)));
        }
        return out;
    }

    private static ArrayNode ids(Set<NoteId> ids) {
        ArrayNode a = F.arrayNode();
        ids.forEach(i -> a.add(i.text()));
        return a;
    }

    // ---- abstract state ------------------------------------------------------------------------

    Set<String> fields() {
        Set<String> f = new LinkedHashSet<>(List.of("conn", "connId", "K", "D", "sess", "snet", "delivered"));
        if (!base.startsWith("ExactlyOnceS4")) {
            f.addAll(List.of("now", "TS"));
        }
        if (base.equals("ExactlyOnceS6")) {
            f.add("H");
        }
        if (base.equals("ExactlyOnceS5")) {
            f.add("lastEnd");
        }
        if (outcome()) {
            f.add("att");
        }
        if (plainDeliver()) {
            f.addAll(List.of("net", "pending"));
        }
        return f;
    }

    Map<String, JsonNode> abstractState() {
        Map<String, JsonNode> m = new TreeMap<>();
        m.put("conn", F.textNode(clientCore.conn().map(ServerId::name).orElse("none")));
        m.put("connId", F.numberNode(connId));
        ObjectNode k = F.objectNode();
        ObjectNode d = F.objectNode();
        ObjectNode sess = F.objectNode();
        for (ServerId s : servers) {
            GatherServer c = cores.get(s);
            k.set(s.name(), ids(c.k()));
            d.set(s.name(), ids(c.d()));
            ObjectNode session = F.objectNode();
            session.put("phase", c.phase().name().toLowerCase(java.util.Locale.ROOT));
            session.put("sid", c.session() == 0 ? 0 : specSid(s, c.session()));
            session.set("stale", names(c.stale()));
            session.set("asked", names(c.asked()));
            session.set("replied", names(c.replied()));
            session.set("common", ids(c.common()));
            sess.set(s.name(), session);
        }
        m.put("K", ExactlyOnceReplayer.normalize(k));
        m.put("D", ExactlyOnceReplayer.normalize(d));
        m.put("sess", ExactlyOnceReplayer.normalize(sess));
        ArrayNode net = F.arrayNode();
        snet.forEach(net::add);
        m.put("snet", ExactlyOnceReplayer.normalize(net));
        m.put("delivered", delivered.deepCopy());
        Set<String> fields = fields();
        if (fields.contains("TS")) {
            m.put("now", F.numberNode(clock.now()));
            ObjectNode ts = F.objectNode();
            for (ServerId s : servers) {
                ObjectNode row = F.objectNode();
                for (ServerId t : servers) {
                    row.put(t.name(), cores.get(s).ts().getOrDefault(t, NEVER));
                }
                ts.set(s.name(), row);
            }
            m.put("TS", ts);
        }
        if (plainDeliver()) {
            ArrayNode n = F.arrayNode();
            clientNet.forEach(n::add);
            m.put("net", ExactlyOnceReplayer.normalize(n));
            ObjectNode pending = F.objectNode();
            for (ServerId s : servers) {
                ArrayNode a = F.arrayNode();
                cores.get(s).unresolved().keySet().forEach(i -> a.add(i.text()));
                pending.set(s.name(), a);
            }
            m.put("pending", pending);
        }
        if (outcome()) {
            ObjectNode att = F.objectNode();
            for (ServerId s : servers) {
                SortedMap<NoteId, Long> open = cores.get(s).unresolved();
                att.put(s.name(), open.isEmpty() ? "none" : open.firstKey().text());
            }
            m.put("att", att);
        }
        if (fields.contains("lastEnd") && clientCore instanceof S5Client s5) {
            m.put("lastEnd", F.numberNode(s5.lastEnd().orElse(NEVER)));
        }
        if (fields.contains("H")) {
            ClientHistory h = ((HistoryClient) clientCore).history();
            ObjectNode hn = F.objectNode();
            for (ServerId t : servers) {
                long v = h.open().contains(t) ? OPEN : h.ended().containsKey(t) ? h.ended().get(t)
                        : h.complete() ? NEVER : UNKNOWN;
                hn.put(t.name(), v);
            }
            m.put("H", hn);
        }
        return m;
    }

    private static ArrayNode names(Set<ServerId> ss) {
        ArrayNode a = F.arrayNode();
        ss.forEach(s -> a.add(s.name()));
        return a;
    }
}
