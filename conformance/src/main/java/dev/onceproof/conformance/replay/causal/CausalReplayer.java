package dev.onceproof.conformance.replay.causal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.CausalState;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.JoinState;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.ManualTicker;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Outgoing;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.Recovery;
import dev.onceproof.causal.Refusal;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.Step;
import dev.onceproof.causal.Ticker;
import dev.onceproof.causal.VectorClock;
import dev.onceproof.causal.ViewChange;
import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.conformance.trace.TraceStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Replays causal traces (specs/causal/Causal.tla) on one {@link CausalNode} per spec node,
 * following the Causal section of specs/CONVENTIONS.md: each step's action is the named core call
 * on the named node, its outcome and the datagrams it returns are compared with the trace (every
 * envelope the step added to {@code net} must be one the core returned, and every one the core
 * returned must be in {@code net} after the step), and after every step every node's {@code vc},
 * {@code buf}, {@code store}, {@code missing}, {@code up} and {@code dlog} are compared with the
 * trace's. Timers are untimed in the spec, so the cores' clock never moves: the replayer calls
 * {@code expireWait}, {@code expireRto}, {@code sendHeartbeat} and {@code collectGarbage} when the
 * trace says so, and never {@code poll}. With the constant {@code Collecting} TRUE, each node's
 * {@code known} (what it has learnt of the others' progress, which stability rests on) is compared
 * too; without it the spec learns nothing and the core's rows are not compared.
 */
public final class CausalReplayer implements FamilyReplayer {

    private static final Set<String> ACTIONS = Set.of("Init", "Broadcast", "Receive", "Deliver", "ExpireWait",
            "ExpireRto", "ServeRequest", "SendHeartbeat", "ReceiveHeartbeat", "Lose", "Crash", "CollectGarbage");
    /** CausalMembership's view change, which its traces add (CausalNode's view-change calls and ViewChange). */
    private static final Set<String> VIEW_ACTIONS = Set.of("Suspect", "FlushReport", "DecideView", "FlushForward",
            "InstallView");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final BiFunction<CausalConfig, Ticker, CausalNode> factory;
    /** Replaying CausalMembership (the view change, its variables compared too) rather than Causal. */
    private final boolean membership;
    /** Replaying CausalMembershipRestart: flushing a set, reports and installs over it, the freeze per node. */
    private final boolean restart;
    /** Replaying CausalJoin: spares idle until a Join hands them a member's state. */
    private final boolean join;

    public CausalReplayer() {
        this(CausalNode::new);
    }

    /** With a core factory: tests pass a broken core (a seam overridden) to show replay catches it. */
    public CausalReplayer(BiFunction<CausalConfig, Ticker, CausalNode> factory) {
        this(factory, false, false, false);
    }

    private CausalReplayer(BiFunction<CausalConfig, Ticker, CausalNode> factory, boolean membership,
            boolean restart, boolean join) {
        this.factory = factory;
        this.membership = membership;
        this.restart = restart;
        this.join = join;
    }

    /** The replayer of specs/causal/CausalMembership.tla's traces. */
    public static CausalReplayer membership() {
        return membership(CausalNode::new);
    }

    public static CausalReplayer membership(BiFunction<CausalConfig, Ticker, CausalNode> factory) {
        return new CausalReplayer(factory, true, false, false);
    }

    /** The replayer of specs/causal/CausalMembershipRestart.tla's traces (the flush restart). */
    public static CausalReplayer restart() {
        return restart(CausalNode::new);
    }

    public static CausalReplayer restart(BiFunction<CausalConfig, Ticker, CausalNode> factory) {
        return new CausalReplayer(factory, true, true, false);
    }

    /** The replayer of specs/causal/CausalJoin.tla's traces (a spare id joins with state transfer). */
    public static CausalReplayer join() {
        return join(CausalNode::new);
    }

    public static CausalReplayer join(BiFunction<CausalConfig, Ticker, CausalNode> factory) {
        return new CausalReplayer(factory, true, false, true);
    }

    @Override
    public String spec() {
        return join ? "CausalJoin" : restart ? "CausalMembershipRestart" : membership ? "CausalMembership" : "Causal";
    }

    @Override
    public Set<String> actions() {
        if (!membership) {
            return ACTIONS;
        }
        Set<String> all = new TreeSet<>(ACTIONS);
        all.addAll(VIEW_ACTIONS);
        if (join) {
            all.add("Join");
            all.add("InstallJoin");
        }
        return all;
    }

    @Override
    public Session start(TraceHeader header) {
        return new CausalSession(header.constants());
    }

    private static JsonNode required(ObjectNode c, String name) {
        JsonNode v = c.get(name);
        if (v == null) {
            throw new IllegalArgumentException("the header's constants have no " + name + " (Causal.tla CONSTANTS)");
        }
        return v;
    }

    private final class CausalSession implements Session {

        /** Spec node names in the order of Nodes: index = NodeId index = ring position. */
        private final List<String> names = new ArrayList<>();
        private final Mode mode;
        private final Recovery recovery;
        private final boolean collecting;
        /** The spec's MaxBuffered and MaxStored: the core's maxBuffered and maxStored. */
        private final int maxBuffered;
        private final int maxStored;
        private final ManualTicker ticker = new ManualTicker(0);
        private CausalNode[] cores;
        /** The view change's coordinator (CausalMembership's global variables); unused for Causal. */
        private ViewChange views;
        private final Map<String, List<EventId>> dlog = new TreeMap<>();
        private ObjectNode previous;
        /** CausalJoin's spares that have not joined yet: idle (spec up FALSE), out of every view. */
        private final Set<String> idle = new TreeSet<>();
        /** CausalJoin: what each joiner was handed, which its members' InstallJoin steps carry. */
        private final Map<String, JoinState> joins = new TreeMap<>();
        /** A restart trace's FlushForward: the sends of its per-node forwards, compared as one step's. */
        private List<Outgoing> forwarded;

        CausalSession(ObjectNode c) {
            required(c, "Nodes").forEach(n -> names.add(n.asText()));
            mode = Mode.fromSpecName(required(c, "Mode").asText());
            recovery = Recovery.fromSpecName(required(c, "Recovery").asText());
            // Traces made before the spec had garbage collection have no Collecting: it was off.
            collecting = c.has("Collecting") && c.get("Collecting").asBoolean();
            // Likewise for the memory bounds: unbounded, as the core's bounds were set before.
            maxBuffered = c.has("MaxBuffered") ? c.get("MaxBuffered").asInt() : 1 << 20;
            maxStored = c.has("MaxStored") ? c.get("MaxStored").asInt() : 1 << 20;
            if (join) {
                required(c, "Spare").forEach(n -> idle.add(n.asText()));
            }
        }

        private int index(String name) {
            int k = names.indexOf(name);
            if (k < 0) {
                throw new IllegalArgumentException("node \"" + name + "\" is not in Nodes " + names);
            }
            return k;
        }

        private NodeId node(JsonNode name) {
            return NodeId.of(index(name.asText()));
        }

        private VectorClock clock(JsonNode vc) {
            long[] v = new long[names.size()];
            for (int k = 0; k < v.length; k++) {
                JsonNode x = vc.get(names.get(k));
                v[k] = x == null ? 0 : x.asLong();
            }
            return VectorClock.of(v);
        }

        private EventId id(ObjectNode p) {
            return new EventId(node(p.get("origin")), p.get("seq").asLong());
        }

        @Override
        public List<Mismatch> apply(TraceStep step) {
            ObjectNode s = step.state();
            ObjectNode p = step.params();
            List<Mismatch> out = new ArrayList<>();
            Step result = null;
            String at = p.has("node") ? p.get("node").asText() : "";
            String action = restart && VIEW_ACTIONS.contains(step.action()) ? "restart" : step.action();
            switch (action) {
                case "restart" -> result = restartStep(step.action(), p, out);
                case "Init" -> {
                    cores = new CausalNode[names.size()];
                    for (int k = 0; k < cores.length; k++) {
                        CausalConfig cfg = new CausalConfig(names.size(), NodeId.of(k), mode, 1, 1, 0,
                                maxBuffered, maxStored, 1 << 20, recovery);
                        cores[k] = factory.apply(cfg, ticker);
                        dlog.put(names.get(k), new ArrayList<>());
                    }
                    views = new ViewChange(names.size());
                    for (String j : idle) {
                        views.spare(NodeId.of(index(j)));
                        for (CausalNode core : cores) {
                            core.spare(NodeId.of(index(j)));
                        }
                    }
                }
                case "Join" -> {
                    // Spec Join(d, j): the donor hands its state and installs the view with j, j starts
                    // from the state; the other members install the join at their InstallJoin steps.
                    NodeId d = node(p.get("node"));
                    String jn = p.get("target").asText();
                    NodeId j = NodeId.of(index(jn));
                    out.addAll(Mismatch.compare("join", F.booleanNode(true), F.booleanNode(views.join(d, j))));
                    JoinState handed = cores[d.index()].join(j);
                    joins.put(jn, handed);
                    cores[j.index()].startFrom(handed);
                    dlog.put(jn, new ArrayList<>(dlog.get(names.get(d.index()))));
                    idle.remove(jn);
                }
                case "InstallJoin" -> {
                    // Spec InstallJoin(i, j): member i installs the view with j, its row from the handed prefix.
                    JoinState handed = joins.get(p.get("target").asText());
                    if (handed == null) {
                        throw new IllegalArgumentException("InstallJoin of " + p.get("target") + " at " + at
                                + " before any Join of it");
                    }
                    result = core(at).installJoin(handed.joiner(), handed.donor(), handed.prefix());
                    views.joinInstalled(node(p.get("node")));
                }
                case "Broadcast" -> {
                    result = core(at).broadcast(Payload.EMPTY);
                    out.addAll(Mismatch.compare("seq", p.get("seq"),
                            F.numberNode(result.delivered().isEmpty() ? -1 : result.delivered().get(0).seq())));
                }
                case "Receive" -> {
                    Event e = new Event(id(p), clock(p.get("vc")), Payload.EMPTY);
                    CausalMessage m = p.get("type").asText().equals("data") ? new CausalMessage.Data(e)
                            : new CausalMessage.Resend(node(p.get("from")), e);
                    result = core(at).receive(m);
                    out.addAll(Mismatch.compare("outcome", p.get("outcome"), F.textNode(
                            result.outcome() == Outcome.ACCEPTED ? "buffered"
                                    : result.outcome() == Outcome.DUPLICATE ? "duplicate"
                                    : result.refusal() == Refusal.EXCLUDED ? "excluded"
                                    : result.outcome() == Outcome.REFUSED ? "refused" : result.outcome().name())));
                }
                case "Deliver" -> {
                    result = core(at).deliver(id(p));
                    out.addAll(Mismatch.compare("delivered", F.textNode(id(p).toString()),
                            F.textNode(result.delivered().size() == 1 ? result.delivered().get(0).id().toString()
                                    : result.outcome() + " " + result.delivered())));
                }
                case "ExpireWait" -> result = core(at).expireWait(id(p));
                case "ExpireRto" -> result = core(at).expireRto(id(p));
                case "ServeRequest" -> {
                    result = core(at).serveRequest(node(p.get("from")), id(p));
                    out.addAll(Mismatch.compare("outcome", p.get("outcome"), F.textNode(
                            result.outcome() == Outcome.ACCEPTED ? "resent"
                                    : result.outcome() == Outcome.REFUSED ? "refused" : result.outcome().name())));
                }
                case "SendHeartbeat" -> {
                    result = core(at).sendHeartbeat();
                    out.addAll(Mismatch.compare("vc", p.get("vc"), vcJson(core(at).prefixClock())));
                }
                case "ReceiveHeartbeat" -> result = core(at).receiveHeartbeat(node(p.get("from")), clock(p.get("vc")));
                case "Lose" -> {
                    // The network lost an envelope: no core call.
                }
                case "Crash" -> core(at).crash();
                case "CollectGarbage" -> {
                    int collected = core(at).collectGarbage();
                    out.addAll(Mismatch.compare("collected", F.textNode("at least one"),
                            F.textNode(collected > 0 ? "at least one" : "none")));
                }
                case "Suspect" -> out.addAll(Mismatch.compare("suspect", F.booleanNode(true),
                        F.booleanNode(views.suspect(node(p.get("node")), node(p.get("target"))))));
                case "FlushReport" -> {
                    NodeId x = node(p.get("target"));
                    result = core(at).flushReport(x);
                    SeqSet seqs = core(at).deliveredOf(x);
                    views.report(node(p.get("node")), seqs);
                    out.addAll(Mismatch.compare("seqs", canonical(p.get("seqs")), seqsJson(seqs)));
                }
                case "DecideView" -> {
                    NodeId x = node(p.get("target"));
                    SeqSet seqs = views.decide().map(d -> d.get(x)).orElse(null);
                    out.addAll(Mismatch.compare("seqs", canonical(p.get("seqs")),
                            seqs == null ? F.textNode("no decision") : seqsJson(seqs)));
                    if (seqs != null) {
                        for (NodeId i : views.members()) {
                            cores[i.index()].decideView(x, seqs);
                        }
                    }
                }
                case "FlushForward" -> {
                    NodeId x = node(p.get("target"));
                    NodeId to = node(p.get("to"));
                    result = core(at).flushForward(x, to, views.forwards(node(p.get("node")), to));
                }
                case "InstallView" -> {
                    result = core(at).installView(node(p.get("target")));
                    out.addAll(Mismatch.compare("install", F.textNode("ACCEPTED"), F.textNode(result.outcome().name())));
                    views.installed(node(p.get("node")));
                }
                default -> throw new IllegalArgumentException("no causal core call for action " + step.action());
            }
            if (result != null) {
                if (!at.isEmpty()) {
                    result.delivered().forEach(e -> dlog.get(at).add(e.id()));
                }
                out.addAll(compareSends(step.action(), result.sends(), s.get("net")));
            }
            if (forwarded != null) {
                out.addAll(compareSends(step.action(), forwarded, s.get("net")));
                forwarded = null;
            }
            previous = s;
            for (int k = 0; k < names.size(); k++) {
                String n = names.get(k);
                out.addAll(Mismatch.compareAll(expected(s, n), actual(n, cores[k].state(), dlog.get(n))));
            }
            if (membership) {
                out.addAll(Mismatch.compareAll(expectedViews(s), actualViews()));
            }
            return out;
        }

        /**
         * CausalMembershipRestart's view-change steps: flushing is a set, so a report, a decision, a
         * forward and an install are over every node being removed (the core's calls over sets, or
         * one per node where the core takes one), and the decision names the coordinator.
         */
        private Step restartStep(String action, ObjectNode p, List<Mismatch> out) {
            NodeId at = node(p.get("node"));
            switch (action) {
                case "Suspect" -> {
                    out.addAll(Mismatch.compare("suspect", F.booleanNode(true),
                            F.booleanNode(views.suspect(at, node(p.get("target"))))));
                    return null;
                }
                case "FlushReport" -> {
                    List<NodeId> xs = nodes(p.get("targets"));
                    Step result = cores[at.index()].flushReport(xs);
                    Map<NodeId, SeqSet> seqs = new TreeMap<>();
                    ArrayNode ids = F.arrayNode();
                    for (NodeId x : xs) {
                        seqs.put(x, cores[at.index()].deliveredOf(x));
                        seqs.get(x).seqs().forEach(q -> ids.addObject().put("origin", names.get(x.index())).put("seq", q));
                    }
                    views.report(at, seqs);
                    out.addAll(Mismatch.compare("ids", canonical(p.get("ids")), canonical(ids)));
                    return result;
                }
                case "DecideView" -> {
                    out.addAll(Mismatch.compare("coordinator", p.get("node"),
                            F.textNode(names.get(views.coordinator().index()))));
                    var decided = views.decide();
                    ObjectNode agreed = F.objectNode();
                    decided.ifPresent(d -> d.forEach((x, seqs) -> agreed.set(names.get(x.index()), seqsJson(seqs))));
                    out.addAll(Mismatch.compare("agreed", canonical(p.get("agreed")),
                            decided.isEmpty() ? F.textNode("no decision") : canonical(agreed)));
                    // Every survivor learns the decision; a removed node is told nothing and stays frozen.
                    decided.ifPresent(d -> views.members().forEach(i -> d.forEach((x, seqs) -> cores[i.index()].decideView(x, seqs))));
                    return null;
                }
                case "FlushForward" -> {
                    NodeId to = node(p.get("to"));
                    List<Outgoing> sends = new ArrayList<>();
                    for (NodeId x : nodes(p.get("targets"))) {
                        sends.addAll(cores[at.index()].flushForward(x, to, views.forwards(at, to, x)).sends());
                    }
                    forwarded = sends;
                    return null;
                }
                default -> {
                    Step result = cores[at.index()].installView(nodes(p.get("targets")));
                    out.addAll(Mismatch.compare("install", F.textNode("ACCEPTED"), F.textNode(result.outcome().name())));
                    views.installed(at);
                    return result;
                }
            }
        }

        private List<NodeId> nodes(JsonNode array) {
            List<NodeId> out = new ArrayList<>();
            array.forEach(x -> out.add(node(x)));
            return out;
        }

        /** The coordinator's variables: members, flushing, reported, gone, and agreed of every removed node. */
        private Map<String, JsonNode> expectedViews(ObjectNode s) {
            Map<String, JsonNode> m = new TreeMap<>();
            m.put("members", canonical(s.get("members")));
            m.put("flushing", restart ? canonical(s.get("flushing")) : s.get("flushing"));
            m.put("reported", canonical(s.get("reported")));
            m.put("gone", canonical(s.get("gone")));
            ObjectNode agreed = F.objectNode();
            s.get("gone").forEach(x -> agreed.set(x.asText(), canonical(s.get("agreed").get(x.asText()))));
            m.put("agreed", agreed);
            return m;
        }

        private Map<String, JsonNode> actualViews() {
            Map<String, JsonNode> m = new TreeMap<>();
            m.put("members", nodesJson(views.members()));
            m.put("flushing", restart ? nodesJson(views.flushing())
                    : F.textNode(views.flushing().isEmpty() ? "" : names.get(views.flushing().first().index())));
            m.put("reported", nodesJson(views.reported()));
            m.put("gone", nodesJson(views.gone()));
            ObjectNode agreed = F.objectNode();
            views.gone().forEach(x -> agreed.set(names.get(x.index()), seqsJson(views.agreedOf(x))));
            m.put("agreed", agreed);
            return m;
        }

        private JsonNode nodesJson(java.util.Collection<NodeId> nodes) {
            ArrayNode a = F.arrayNode();
            nodes.forEach(k -> a.add(names.get(k.index())));
            return canonical(a);
        }

        private JsonNode seqsJson(SeqSet seqs) {
            ArrayNode a = F.arrayNode();
            seqs.seqs().forEach(a::add);
            return canonical(a);
        }

        private CausalNode core(String name) {
            return cores[index(name)];
        }

        /** net' \ net must be among the core's datagrams, and each of those must be in net'. */
        private List<Mismatch> compareSends(String action, List<Outgoing> sends, JsonNode netAfter) {
            List<Mismatch> out = new ArrayList<>();
            Set<String> after = canonicalSet(netAfter);
            Set<String> before = previous == null ? Set.of() : canonicalSet(previous.get("net"));
            Set<String> sent = new TreeSet<>();
            for (Outgoing o : sends) {
                sent.add(canonical(envelope(o)).toString());
            }
            Set<String> added = new TreeSet<>(after);
            added.removeAll(before);
            Set<String> notSent = new TreeSet<>(added);
            notSent.removeAll(sent);
            Set<String> notInNet = new TreeSet<>(sent);
            notInNet.removeAll(after);
            if (!notSent.isEmpty() || !notInNet.isEmpty()) {
                out.add(new Mismatch(action + " sends", "net' \\ net = " + added, "core sent " + sent));
            }
            return out;
        }

        private ObjectNode envelope(Outgoing o) {
            ObjectNode e = F.objectNode();
            CausalMessage m = o.message();
            String type;
            EventId id;
            VectorClock vc;
            if (m instanceof CausalMessage.Data d) {
                type = "data";
                id = d.event().id();
                vc = d.event().vc();
            } else if (m instanceof CausalMessage.Resend r) {
                type = "resend";
                id = r.event().id();
                vc = r.event().vc();
            } else if (m instanceof CausalMessage.Request q) {
                type = "req";
                id = q.id();
                vc = VectorClock.zero(names.size());
            } else {
                CausalMessage.Heartbeat h = (CausalMessage.Heartbeat) m;
                type = "hb";
                id = null;
                vc = h.vc();
            }
            e.put("from", names.get(m.from().index()));
            e.put("origin", id == null ? names.get(m.from().index()) : names.get(id.origin().index()));
            e.put("seq", id == null ? 0 : id.seq());
            e.put("to", names.get(o.to().index()));
            e.put("type", type);
            e.set("vc", vcJson(vc));
            return e;
        }

        private ObjectNode vcJson(VectorClock vc) {
            ObjectNode o = F.objectNode();
            for (String n : new TreeSet<>(names)) {
                o.put(n, vc.get(index(n)));
            }
            return o;
        }

        private Map<String, JsonNode> expected(ObjectNode s, String n) {
            Map<String, JsonNode> m = new TreeMap<>();
            for (String f : List.of("vc", "buf", "store", "missing", "up")) {
                JsonNode v = s.get(f).get(n);
                m.put(n + "." + f, f.equals("vc") || f.equals("up") ? v : canonical(v));
            }
            m.put(n + ".dlog", s.get("dlog").get(n));
            m.put(n + ".deliverable", deliverable(s, n));
            if (membership) {
                m.put(n + ".view", canonical(s.get("view").get(n)));
            }
            if (collecting) {
                ObjectNode rows = F.objectNode();
                s.get("known").get(n).fields().forEachRemaining(r -> {
                    if (!r.getKey().equals(n)) {
                        rows.set(r.getKey(), r.getValue());
                    }
                });
                m.put(n + ".known", rows);
            }
            return m;
        }

        /**
         * The spec's Deliverable(i, m) over buf[i], from the trace's own vc and buf: the buffered
         * messages the spec would let Deliver take now (every one in the unordered mode). Compared with the core's deliverable(), so a
         * guard that is too loose (delivers without waiting) or too strict (GuardNotTooStrict) is
         * caught at the first state where it matters, even if the trace never delivers there.
         */
        private JsonNode deliverable(ObjectNode s, String n) {
            ArrayNode out = F.arrayNode();
            JsonNode vc = s.get("vc").get(n);
            for (JsonNode m : s.get("buf").get(n)) {
                String o = m.get("origin").asText();
                boolean ok = mode == Mode.UNORDERED || m.get("seq").asLong() == vc.get(o).asLong() + 1;
                for (String k : names) {
                    if (mode != Mode.UNORDERED && !k.equals(o) && m.get("vc").get(k).asLong() > vc.get(k).asLong()) {
                        ok = false;
                    }
                }
                if (ok && (!membership || mayDeliver(s, n, o, m.get("seq").asLong()))) {
                    out.addObject().put("origin", o).put("seq", m.get("seq").asLong());
                }
            }
            return canonical(out);
        }

        /**
         * CausalMembership's MayDeliver(i, m): once n reported on o (the freeze) or removed o, only an
         * agreed event of o, after the decision, may be delivered.
         */
        private boolean mayDeliver(ObjectNode s, String n, String o, long seq) {
            boolean excluded = !contains(s.get("view").get(n), o);
            boolean frozen = restart ? contains(s.get("frozen").get(n), o)
                    : s.get("flushing").asText().equals(o) && contains(s.get("reported"), n);
            if (!excluded && !frozen) {
                return true;
            }
            boolean decided = !contains(s.get("members"), o);
            boolean agreed = false;
            for (JsonNode x : s.get("agreed").get(o)) {
                agreed |= x.asLong() == seq;
            }
            // CausalMembershipRestart: and not between n's report and the next decision it learns.
            return decided && agreed && !(restart && contains(s.get("awaiting").get(n), o));
        }

        private boolean contains(JsonNode array, String text) {
            for (JsonNode x : array) {
                if (x.asText().equals(text)) {
                    return true;
                }
            }
            return false;
        }

        private Map<String, JsonNode> actual(String n, CausalState st, List<EventId> log) {
            Map<String, JsonNode> m = new TreeMap<>();
            m.put(n + ".vc", vcJson(st.vc()));
            ArrayNode buf = F.arrayNode();
            st.buf().forEach((d, vc) -> buf.add(message(d, vc)));
            ArrayNode store = F.arrayNode();
            st.store().forEach((d, vc) -> store.add(message(d, vc)));
            ArrayNode missing = F.arrayNode();
            st.missing().forEach((d, r) -> {
                ObjectNode o = F.objectNode();
                o.put("asked", r.asked() == null ? "" : names.get(r.asked().index()));
                ArrayNode h = o.putArray("holders");
                r.holders().forEach(k -> h.add(names.get(k.index())));
                o.put("origin", names.get(d.origin().index()));
                o.put("phase", r.phase().specName());
                o.put("seq", d.seq());
                missing.add(o);
            });
            m.put(n + ".buf", canonical(buf));
            m.put(n + ".store", canonical(store));
            m.put(n + ".missing", canonical(missing));
            m.put(n + ".up", F.booleanNode(st.up() && !idle.contains(n)));
            ArrayNode dl = F.arrayNode();
            for (EventId d : log) {
                dl.addObject().put("origin", names.get(d.origin().index())).put("seq", d.seq());
            }
            m.put(n + ".dlog", dl);
            ArrayNode ready = F.arrayNode();
            CausalNode core = cores[index(n)];
            for (EventId d : core.deliverable()) {
                ready.addObject().put("origin", names.get(d.origin().index())).put("seq", d.seq());
            }
            m.put(n + ".deliverable", canonical(ready));
            if (membership) {
                m.put(n + ".view", nodesJson(st.view()));
            }
            if (collecting) {
                ObjectNode rows = F.objectNode();
                st.known().forEach((j, row) -> rows.set(names.get(j.index()), vcJson(row)));
                m.put(n + ".known", rows);
            }
            return m;
        }

        private ObjectNode message(EventId d, VectorClock vc) {
            ObjectNode o = F.objectNode();
            o.put("origin", names.get(d.origin().index()));
            o.put("seq", d.seq());
            o.set("vc", vcJson(vc));
            return o;
        }
    }

    /** A set (JSON array in TLC's order) as a sorted array of its canonical elements' text. */
    private static Set<String> canonicalSet(JsonNode array) {
        Set<String> out = new TreeSet<>();
        if (array != null) {
            array.forEach(e -> out.add(canonical(e).toString()));
        }
        return out;
    }

    /** Every array read as a set (sorted by canonical text), every object with sorted keys. */
    static JsonNode canonical(JsonNode v) {
        if (v == null) {
            return null;
        }
        if (v.isArray()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            v.forEach(e -> {
                JsonNode c = canonical(e);
                sorted.put(c.toString(), c);
            });
            ArrayNode a = F.arrayNode();
            sorted.values().forEach(a::add);
            return a;
        }
        if (v.isObject()) {
            TreeMap<String, JsonNode> fields = new TreeMap<>();
            v.fields().forEachRemaining(e -> fields.put(e.getKey(), canonical(e.getValue())));
            ObjectNode o = F.objectNode();
            fields.forEach(o::set);
            return o;
        }
        if (v.isIntegralNumber()) {
            return F.numberNode(v.longValue());
        }
        return v;
    }
}
