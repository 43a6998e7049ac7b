package dev.onceproof.exactlyonce;

import dev.onceproof.sim.SimNetwork;
import dev.onceproof.steplog.StepLog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@link EoWorld}'s step log for Strategy 2 (TraceExactlyOnceS2.tla): as Strategy 1's, its notes
 * with their incarnation (wire ids are reused), its sync lines with the message (round, K, removed,
 * seen), and a Lose line when the last copy of a note or ack leaves the network (Condition 1 reads
 * the copies in flight). With replicas as messages (TraceExactlyOnceS2Async.tla,
 * {@link EoWorld#s2WithReplicasAsMessages}) also ReceiveReplica, LoseReplica (the last copy of a
 * replica gone), SettleNumber and the origin's confirmations on each reply.
 */
final class EoWorldS2Lines extends EoWorldLines {

    private final boolean asyncReplicas;
    private final SimNetwork<EoMessage> net;

    // Wire ids are reused, so a line names the incarnation.
    /** Wire id -> how many notes were created with it so far (the next one's incarnation). */
    private final Map<NoteId, Integer> issues = new HashMap<>();
    /** A note's tag -> its incarnation, the spec's {@code Nth(x, k).inc}. */
    private final Map<String, Integer> incOfTag = new HashMap<>();
    /** Each ack the client sent -> the incarnation it acknowledges (the ack itself names only the wire id). */
    private final Map<EoMessage, Integer> ackInc = new java.util.IdentityHashMap<>();
    /**
     * Replicas as messages: the numbers whose CreateNote line was written and whose SettleNumber
     * line was not (the spec's complement of {@code settled}), per server.
     */
    private final Map<ServerId, java.util.SortedSet<Long>> unsettledLogged = new HashMap<>();

    EoWorldS2Lines(int w, int q, long te, List<ServerId> servers, List<ClientId> clients, EoWorldNodes nodes,
            boolean asyncReplicas, SimNetwork<EoMessage> net) {
        super(Strategy.S2, w, q, te, servers, clients, nodes);
        this.asyncReplicas = asyncReplicas;
        this.net = net;
    }

    @Override
    StepLog.Header header() {
        List<String> names = names();
        if (asyncReplicas) { // replicas as messages, numbers settling T_e after issue
            return new StepLog.Header("ExactlyOnceS2MsgAsync", "async", "world").strings("Servers", names)
                    .strings("Origins", names).constant("Client", clients.get(0).name()).constant("W", w);
        }
        // syncs as requests and replies with round, K, removed and seen
        return new StepLog.Header("ExactlyOnceS2Msg", "msg", "world").strings("Servers", names)
                .strings("Origins", names).constant("Client", clients.get(0).name()).constant("W", w);
    }

    @Override
    StepLog note(StepLog l, NoteId id, Integer inc) {
        l.field("note", id.text());
        return l.field("inc", java.util.Objects.requireNonNull(inc, "incarnation"));
    }

    @Override
    Integer incOf(Note n) {
        return incOfTag.get(n.body());
    }

    @Override
    void createNote(ServerId server, NoteId id, String tag) {
        if (on()) {
            incOfTag.put(tag, issues.merge(id, 1, Integer::sum) - 1);
            note(line("CreateNote").field("server", server.name()), id, incOfTag.get(tag)).end();
        }
        if (on() && asyncReplicas) {
            unsettledLogged.computeIfAbsent(server, x -> new TreeSet<>()).add(((NoteId.Sequenced) id).seq());
        }
    }

    @Override
    Integer incOfPending(EoServer core, Optional<NoteId> pending) {
        return on() && pending.isPresent() ? incOf(((ServerDurableState) core.durable()).k().get(pending.get())) : null;
    }

    @Override
    void clientSent(EoMessage m, Integer inc) {
        if (on() && m instanceof EoMessage.NoteAck) {
            ackInc.put(m, inc);
        }
    }

    /** One StartSync for the round: its request to every peer is the same message. */
    @Override
    void startSync(ServerStep step) {
        if (on()) {
            for (ServerEffect e : step.effects()) {
                if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.SyncRequest r) {
                    syncMsg(line("StartSync").field("server", r.from().name()), r.round(), r.k(), r.removed(),
                            r.seen(), r.tags()).end();
                    break;
                }
            }
        }
    }

    @Override
    void receiveAck(EoMessage.NoteAck a, ServerStep step) {
        if (on() && step.outcome().equals("delivered")) {
            withK(note(line("ReceiveAck").field("server", a.to().name()), a.id(), ackInc.get(a)), a.to()).end();
        }
    }

    @Override
    void handleSync(EoMessage.SyncRequest r) {
        if (on()) {
            withK(syncMsg(line("HandleSync").field("server", r.to().name()).field("peer", r.from().name()),
                    r.round(), r.k(), r.removed(), r.seen(), r.tags()), r.to()).end();
        }
    }

    @Override
    void receiveSyncReply(EoMessage.SyncReply r) {
        if (on()) {
            StepLog l = withK(syncMsg(line("ReceiveSyncReply").field("server", r.to().name())
                    .field("peer", r.from().name()), r.round(), r.k(), r.removed(), r.seen(), r.tags()), r.to());
            if (asyncReplicas) { // the numbers of its stream the peer has confirmed gone, after the step
                l.numbers("conf", ((S2Server) nodes.server(r.to(), r.client())).confirmedBy(r.from()));
            }
            l.end();
        }
    }

    @Override
    void receiveReplica(EoMessage.Replica r, ServerStep step) {
        if (on()) { // replicas travel only with replicas as messages
            withK(note(line("ReceiveReplica").field("server", r.to().name()), r.note().id(), incOf(r.note()))
                    .field("verdict", step.outcome()), r.to()).end();
        }
    }

    /** Server s's K (wire ids) and removed set, as a line shows them after the step. */
    private StepLog withK(StepLog l, ServerId s) {
        ServerDurableState d = nodes.durable(s);
        return l.strings("K", d.k().keySet().stream().map(NoteId::text).toList())
                .strings("removed", d.removed().stream().map(NoteId::text).toList());
    }

    /**
     * A sync message's round, K, removed and seen on its line; with replicas as messages also its
     * tags (msgTags: removed id -> the issue number its removal names, rule "tag"), which
     * TraceExactlyOnceS2Async reads with Tagged = TRUE. The S2Msg logs stay as they were.
     */
    private StepLog syncMsg(StepLog l, long round, java.util.Set<NoteId> k, java.util.Set<NoteId> removed,
            long seen, java.util.Map<NoteId, Long> tags) {
        l.field("round", round).strings("msgK", k.stream().map(NoteId::text).toList())
                .strings("msgRemoved", removed.stream().map(NoteId::text).toList()).field("msgSeen", seen);
        if (asyncReplicas) {
            java.util.Map<String, Long> byText = new java.util.TreeMap<>();
            tags.forEach((id, issue) -> byText.put(id.text(), issue));
            l.longs("msgTags", byText);
        }
        return l;
    }

    /**
     * The notes and acks in flight, one key per spec message (type, server, wire id, incarnation):
     * the spec's net is a set, the runtime's holds copies.
     */
    @Override
    java.util.Set<List<Object>> copies() {
        java.util.Set<List<Object>> out = new java.util.LinkedHashSet<>();
        if (!on()) {
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
     * A Lose line for each spec message whose last copy left the network since {@code before}
     * (taken, lost or expired): the spec's net keeps a received copy (AllowDup), and the check of
     * Condition 1 (no copy of a reused number in flight) reads it.
     */
    @Override
    void loseLines(java.util.Set<List<Object>> before) {
        if (!on()) {
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
     * A SettleNumber line for each number of server s's stream that has settled by its core's clock
     * since its CreateNote line, written before s's next sync (the step that reads it). A restarted
     * core waits T_e again for the numbers no peer confirmed (S2Server's constructor), as the spec's
     * ServerCrashAsync reopens them; the log writes no second SettleNumber for such a number, so
     * TraceExactlyOnceS2Async settles it at an unlogged step before its server's next StartSync
     * (SettleFor), and when a reopened number settles again is not checked.
     */
    @Override
    void settles(ServerId s) {
        if (!on() || !asyncReplicas) {
            return;
        }
        S2Server core = (S2Server) nodes.server(s, clients.get(0));
        java.util.SortedSet<Long> open = unsettledLogged.getOrDefault(s, new TreeSet<>());
        for (java.util.Iterator<Long> it = open.iterator(); it.hasNext(); ) {
            long seq = it.next();
            if (core.settled(seq)) {
                line("SettleNumber").field("server", s.name()).field("seq", seq).end();
                it.remove();
            }
        }
    }
}
