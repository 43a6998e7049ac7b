package dev.onceproof.exactlyonce;

import dev.onceproof.steplog.StepLog;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link EoWorld}'s step log, one for the world, each hook called where its step happens (the world
 * is one thread, so a server's line written right after the core's step returns is inside the
 * step: nothing else runs between). Strategy 3 (specs/exactlyonce/TraceExactlyOnceS3.tla): the
 * S3Server cores write their own lines, the world the client's (after its durable write, before
 * its ack) and the environment's. Strategies 0 and 1 (TraceExactlyOnceS0.tla, TraceExactlyOnceS1.tla):
 * the world writes every line; Strategy 0's also its ticks, each replica taken and each removal
 * forgotten (before the sync step that forgets it). Strategy 2's lines are {@link EoWorldS2Lines}'.
 * OFF unless {@link #start}; one client only.
 */
class EoWorldLines {

    final Strategy strategy;
    final int w;
    final int q;
    final long te;
    final List<ServerId> servers;
    final List<ClientId> clients;
    final EoWorldNodes nodes;
    private StepLog log = StepLog.OFF;

    EoWorldLines(Strategy strategy, int w, int q, long te, List<ServerId> servers, List<ClientId> clients,
            EoWorldNodes nodes) {
        this.strategy = strategy;
        this.w = w;
        this.q = q;
        this.te = te;
        this.servers = servers;
        this.clients = clients;
        this.nodes = nodes;
    }

    /** Logs the world's steps to {@code log} from now on, starting with the Init line. */
    void start(StepLog log) {
        this.log = log;
        withR(line("Init")).end();
    }

    /** The step log's header for this world: the spec, its mode and constants. */
    StepLog.Header header() {
        List<String> names = names();
        if (strategy == Strategy.S0) { // the forget rule waits T_e on the clock: the timed spec
            return new StepLog.Header("ExactlyOnceS0MsgTimed", "timed", "world").strings("Servers", names)
                    .constant("Client", clients.get(0).name()).constant("Te", te);
        }
        if (strategy == Strategy.S1) { // every server numbers notes of its own stream: all are origins
            return new StepLog.Header("ExactlyOnceS1Msg", "msg", "world").strings("Servers", names)
                    .strings("Origins", names).constant("Client", clients.get(0).name());
        }
        return new StepLog.Header("ExactlyOnceS3MsgRound", "round", "world").strings("Servers", names)
                .constant("Client", clients.get(0).name()).constant("Q", q);
    }

    final List<String> names() {
        return servers.stream().map(ServerId::name).toList();
    }

    final boolean on() {
        return log.on();
    }

    /** The world writes the servers' lines (Strategies 0-2; Strategy 3's cores write their own). */
    final boolean logsServers() {
        return log.on() && strategy != Strategy.S3;
    }

    private boolean logsS0() {
        return log.on() && strategy == Strategy.S0;
    }

    /** Starts a world line (the caller ends it): world steps run on one thread, in order. */
    final StepLog line(String action) {
        return log.step(action);
    }

    /** A line's note: its wire id (Strategy 2 adds the incarnation). */
    StepLog note(StepLog l, NoteId id, Integer inc) {
        return l.field("note", id.text());
    }

    /** The incarnation of note n, for Strategy 2's lines; null for the others. */
    Integer incOf(Note n) {
        return null;
    }

    // ---- server steps -------------------------------------------------------------------------

    /** A note created at server s as {@code id}, its tag {@code tag}: the replicas follow. */
    void createNote(ServerId server, NoteId id, String tag) {
        if (logsServers()) { // the replicas enter every K within this step (atomic), or leave as messages
            note(line("CreateNote").field("server", server.name()), id, null).end();
        }
    }

    /** A replica taken at once within createNote (Strategies 0-2 without replicas as messages). */
    void replicaTakenAtOnce(ServerId to, NoteId id) {
        if (logsS0()) { // Strategy 0's spec replicates by messages, taken here at once
            line("ReceiveReplica").field("server", to.name()).field("note", id.text()).end();
        }
    }

    void endSession(ServerId old) {
        if (logsServers()) {
            line("EndSession").field("server", old.name()).end();
        }
    }

    void startSession(ServerId server) {
        if (logsServers()) {
            line("StartSession").field("server", server.name()).end();
        }
    }

    void sendNote(ServerId s, EoServer core, ServerStep step) {
        if (logsServers() && step.outcome().equals("sent")) {
            Note sent = step.effects().stream().filter(e -> e instanceof ServerEffect.Send x
                    && x.message() instanceof EoMessage.NoteDelivery).map(e -> ((EoMessage.NoteDelivery)
                    ((ServerEffect.Send) e).message()).note()).findFirst().orElseThrow();
            note(line("SendNote").field("server", s.name()), core.pending().orElseThrow(), incOf(sent)).end();
        }
    }

    /** The incarnation of the note server core has pending, read before its timeout (Strategy 2). */
    Integer incOfPending(EoServer core, Optional<NoteId> pending) {
        return null;
    }

    void timeout(ServerId s, Optional<NoteId> pending, Integer inc, ServerStep step) {
        if (logsServers() && step.outcome().equals("aborted")) {
            note(line("Timeout").field("server", s.name()), pending.orElseThrow(), inc).end();
        }
    }

    /**
     * Strategy 0: a Forget line for each id server s's next sync step will forget (S0Server
     * forgets every id its rule allows before a sync round or a request; mayForget changes nothing).
     */
    final void forgets(ServerId s) {
        if (!logsS0()) {
            return;
        }
        S0Server core = (S0Server) nodes.server(s, clients.get(0));
        for (NoteId i : ((ServerDurableState) core.durable()).removed()) {
            if (core.mayForget(i)) {
                line("Forget").field("server", s.name()).field("note", i.text()).end();
            }
        }
    }

    /** Before server s's sync round: Strategy 2's SettleNumber lines. */
    void settles(ServerId s) {
    }

    /** A sync round's requests: one per peer, each the spec's StartSync(s, t). */
    void startSync(ServerStep step) {
        if (logsServers()) {
            for (ServerEffect e : step.effects()) {
                if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.SyncRequest r) {
                    StepLog l = line("StartSync").field("server", r.from().name()).field("peer", r.to().name());
                    (logsS0() ? l.strings("msg", r.removed().stream().map(NoteId::text).toList())
                            : l.longs("msg", pre(r.removed()))).end();
                }
            }
        }
    }

    void receiveAck(EoMessage.NoteAck a, ServerStep step) {
        if (logsS0() && step.outcome().equals("delivered")) {
            withRemoved(line("ReceiveAck").field("server", a.to().name()).field("note", a.id().text()), a.to())
                    .end();
        } else if (logsServers() && strategy == Strategy.S1 && step.outcome().equals("delivered")) {
            line("ReceiveAck").field("server", a.to().name()).field("note", a.id().text())
                    .longs("pre", pre(a.to())).end();
        }
    }

    void handleSync(EoMessage.SyncRequest r) {
        syncLine("HandleSync", r.to(), r.from(), r.removed());
    }

    void receiveSyncReply(EoMessage.SyncReply r) {
        syncLine("ReceiveSyncReply", r.to(), r.from(), r.removed());
    }

    /** A replica taken from the network (only Strategy 2's replicas as messages log it). */
    void receiveReplica(EoMessage.Replica r, ServerStep step) {
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

    /** Strategy 0: server s's removed set and K, as a line shows them after the step. */
    private StepLog withRemoved(StepLog l, ServerId s) {
        ServerDurableState d = nodes.durable(s);
        return l.strings("removed", d.removed().stream().map(NoteId::text).toList())
                .strings("K", d.k().keySet().stream().map(NoteId::text).toList());
    }

    /** Strategy 1's {@code pre[s]}: the delivered prefix of every stream at server s. */
    private Map<String, Long> pre(ServerId s) {
        S1Server core = (S1Server) nodes.server(s, clients.get(0));
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

    // ---- the client and the environment ------------------------------------------------------

    void connect(ServerId server) {
        if (log.on()) {
            line("Connect").field("server", server.name()).end();
        }
    }

    void disconnect() {
        if (log.on()) {
            line("Disconnect").end();
        }
    }

    /** The client took a note or a purge: written after its durable write, before its ack leaves. */
    void clientReceived(String action, ServerId from, NoteId id, Integer inc, ClientStep step) {
        if (log.on()) {
            StepLog l = note(line(action).field("server", from.name()), id, inc);
            if (action.equals("ReceiveNote")) {
                l.field("verdict", step.verdict().specName());
            }
            withR(l).end();
        }
    }

    /** A message the client sends, with the incarnation it answers (Strategy 2's acks). */
    void clientSent(EoMessage m, Integer inc) {
    }

    void clientCrash() {
        if (log.on()) {
            line("ClientCrash").end();
            withR(line("Recover")).end();
        }
    }

    void serverCrash(ServerId server) {
        if (log.on()) {
            line("ServerCrash").field("server", server.name()).end();
        }
    }

    /** Time passed up to {@code now}: the spec's Tick is one tick, so Strategy 0 writes one line each. */
    void ticks(long now, long ticks) {
        if (logsS0()) {
            for (long t = now - ticks + 1; t <= now; t++) {
                line("Tick").field("now", t).end();
            }
        }
    }

    /**
     * Strategy 2: the spec messages in flight before a step that may drop the last copy of one
     * (empty for the others); {@link #loseLines} then names those gone.
     */
    java.util.Set<List<Object>> copies() {
        return new java.util.LinkedHashSet<>();
    }

    void loseLines(java.util.Set<List<Object>> before) {
    }

    /** The client's R on a line: Strategy 3's ids, Strategy 1's last number per stream (0 if none). */
    private StepLog withR(StepLog l) {
        if (strategy == Strategy.S0) { // the at-least-once client keeps nothing
            return l;
        }
        if (strategy == Strategy.S1 || strategy == Strategy.S2) { // S2: R[x] absent = W - 1 (S2Client)
            long none = strategy == Strategy.S1 ? 0L : w - 1;
            ClientStableState.Streams st = (ClientStableState.Streams) nodes.client(clients.get(0)).stable();
            Map<String, Long> r = new java.util.TreeMap<>();
            servers.forEach(x -> r.put(x.name(), st.r().getOrDefault(x, none)));
            return l.longs("R", r);
        }
        return l.strings("R", ((ClientStableState.IdList) nodes.client(clients.get(0)).stable()).r().stream()
                .map(NoteId::text).toList());
    }
}
