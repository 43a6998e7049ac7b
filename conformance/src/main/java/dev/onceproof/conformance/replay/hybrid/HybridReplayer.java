package dev.onceproof.conformance.replay.hybrid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.conformance.trace.TraceStep;
import dev.onceproof.rpc.hybrid.HybridClientCore;
import dev.onceproof.rpc.hybrid.HybridClientState;
import dev.onceproof.rpc.hybrid.HybridEntry;
import dev.onceproof.rpc.hybrid.HybridMessage;
import dev.onceproof.rpc.hybrid.HybridServerCore;
import dev.onceproof.rpc.hybrid.HybridServerState;
import dev.onceproof.rpc.hybrid.ServerStep;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.Timestamp;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Replays traces of specs/rpc/Hybrid.tla (SCMP inside Birrell and Nelson, 3.2) on
 * {@link HybridServerCore} and one {@link HybridClientCore} per connection. Before every step the
 * server's clock is set to the state's {@code now} and each client's to {@code now + skew[c]};
 * after it the server's {@link HybridServerState} ({@code incarnation}, {@code up}, {@code table},
 * {@code upper}) and every client's {@link HybridClientState} must equal the trace's variables, the
 * call outcome must be the spec's, and every message a core sends must be in the trace's network.
 */
public final class HybridReplayer implements FamilyReplayer {

    /** Builds the server core; tests pass one with a safeguard removed to show replay catches it. */
    @FunctionalInterface
    public interface ServerFactory {
        HybridServerCore create(InstantSource clock, long rho, long incarnation);
    }

    private static final Set<String> ACTIONS = Set.of("Init", "Bind", "Call", "Retransmit", "Timeout",
            "ReceiveReply", "ReceiveCall", "ReceiveAck", "CollectGarbage", "Crash", "Recover", "Tick", "Lose");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ServerFactory factory;

    public HybridReplayer() {
        this(HybridServerCore::new);
    }

    public HybridReplayer(ServerFactory factory) {
        this.factory = factory;
    }

    @Override
    public String spec() {
        return "Hybrid";
    }

    @Override
    public Set<String> actions() {
        return ACTIONS;
    }

    @Override
    public Session start(TraceHeader header) {
        JsonNode rho = header.constants().get("Rho");
        if (rho == null) {
            throw new IllegalArgumentException("the header's constants have no Rho (Hybrid.tla CONSTANTS)");
        }
        return new HybridSession(rho.asLong());
    }

    private final class HybridSession implements Session {

        private final long rho;
        private final ManualInstantSource clock = new ManualInstantSource(0);
        private final Map<String, ManualInstantSource> clientClocks = new TreeMap<>();
        private final Map<String, HybridClientCore> clients = new TreeMap<>();
        private HybridServerCore server;

        HybridSession(long rho) {
            this.rho = rho;
        }

        @Override
        public List<Mismatch> apply(TraceStep step) {
            ObjectNode s = step.state();
            ObjectNode p = step.params();
            long now = s.get("now").asLong();
            clock.set(now);
            clientClocks.forEach((c, k) -> k.set(now + s.get("skew").get(c).asLong()));
            List<Mismatch> out = new ArrayList<>();
            switch (step.action()) {
                case "Init" -> init(s);
                case "Tick", "Lose" -> {
                    // No core call: time moved, or the network lost a message.
                }
                case "Bind" -> {
                    long inc = server.incarnation();
                    out.addAll(Mismatch.compare("inc", p.get("inc"), F.numberNode(inc)));
                    client(p).bind(inc);
                }
                case "Call" -> out.addAll(sent(s, Optional.of(client(p).call())));
                case "Retransmit" -> out.addAll(sent(s, client(p).retransmit()));
                case "Timeout" -> client(p).timeout();
                case "ReceiveReply" -> {
                    HybridClientCore c = client(p);
                    // The reply answers the outstanding call, made under the client's binding.
                    HybridMessage.Reply r = new HybridMessage.Reply(conn(p), p.get("seq").asLong(),
                            c.state().inc(), Timestamp.of(0));
                    Optional<HybridMessage.Ack> ack = c.receiveReply(r);
                    out.addAll(sent(s, ack));
                    out.addAll(Mismatch.compare("ackTs", p.get("ackTs"),
                            F.numberNode(ack.map(a -> a.ts().value()).orElse(Long.MIN_VALUE))));
                }
                case "ReceiveCall" -> {
                    HybridMessage.Call m = new HybridMessage.Call(conn(p), p.get("seq").asLong(),
                            p.get("inc").asLong(), Timestamp.of(p.get("ts").asLong()));
                    ServerStep st = server.receiveCall(m);
                    out.addAll(Mismatch.compare("outcome", p.get("outcome"), F.textNode(st.outcome().specName())));
                    out.addAll(sent(s, st.send()));
                }
                case "ReceiveAck" -> {
                    boolean taken = server.receiveAck(new HybridMessage.Ack(conn(p), p.get("seq").asLong(),
                            s.get("incarnation").asLong(), Timestamp.of(p.get("ts").asLong())));
                    out.addAll(Mismatch.compare("taken", F.booleanNode(true), F.booleanNode(taken)));
                }
                case "CollectGarbage" -> {
                    boolean removed = server.collectGarbage(conn(p));
                    out.addAll(Mismatch.compare("removed", F.booleanNode(true), F.booleanNode(removed)));
                }
                case "Crash" -> server.crash();
                case "Recover" -> {
                    long inc = server.recover();
                    out.addAll(Mismatch.compare("inc", p.get("inc"), F.numberNode(inc)));
                }
                default -> throw new IllegalArgumentException("no hybrid core call for action " + step.action());
            }
            out.addAll(Mismatch.compareAll(expected(s), actual()));
            return out;
        }

        private void init(ObjectNode s) {
            server = factory.create(clock, rho, s.get("incarnation").asLong());
            s.get("client").fields().forEachRemaining(e -> {
                ManualInstantSource k = new ManualInstantSource(
                        s.get("now").asLong() + s.get("skew").get(e.getKey()).asLong());
                clientClocks.put(e.getKey(), k);
                clients.put(e.getKey(), new HybridClientCore(ConnId.of(e.getKey()), k, e.getValue().get("ts").asLong()));
            });
        }

        private HybridClientCore client(ObjectNode p) {
            return clients.get(p.get("conn").asText());
        }

        private Map<String, JsonNode> actual() {
            HybridServerState st = server.state();
            Map<String, JsonNode> m = new TreeMap<>();
            m.put("incarnation", F.numberNode(st.incarnation()));
            m.put("up", F.booleanNode(st.up()));
            m.put("upper", F.numberNode(st.upper()));
            ObjectNode table = F.objectNode();
            for (Map.Entry<String, HybridEntry> e : st.table().entrySet()) {
                ObjectNode o = table.putObject(e.getKey());
                o.put("seq", e.getValue().seq());
                o.put("state", e.getValue().specState());
                o.put("ackTs", e.getValue().ackTs());
            }
            m.put("table", table);
            ObjectNode cl = F.objectNode();
            clients.forEach((c, core) -> {
                HybridClientState cs = core.state();
                ObjectNode o = cl.putObject(c);
                o.put("inc", cs.inc());
                o.put("seq", cs.seq());
                o.put("ts", cs.ts());
                o.put("waiting", cs.waiting());
                o.put("outcome", cs.outcome().specName());
            });
            m.put("client", cl);
            return m;
        }
    }

    /** The trace's server and client variables; an empty table prints as <<>>, i.e. []. */
    private static Map<String, JsonNode> expected(ObjectNode s) {
        Map<String, JsonNode> m = new TreeMap<>();
        JsonNode table = s.get("table");
        m.put("table", table != null && table.isArray() && table.isEmpty() ? F.objectNode() : table);
        for (String f : List.of("incarnation", "up", "upper", "client")) {
            m.put(f, s.get(f));
        }
        return m;
    }

    /** A message a core sent must be in the network after the step (the spec's net' has it). */
    private static List<Mismatch> sent(ObjectNode s, Optional<? extends HybridMessage> message) {
        if (message.isEmpty()) {
            return List.of();
        }
        HybridMessage m = message.get();
        ObjectNode json = F.objectNode();
        json.put("conn", m.conn().value());
        json.put("inc", m.inc());
        json.put("seq", m.seq());
        json.put("ts", m.ts().value());
        json.put("type", m.specType());
        for (JsonNode n : s.get("net")) {
            if (n.equals(json)) {
                return List.of();
            }
        }
        return List.of(new Mismatch("sent", "a message in net", json.toString()));
    }

    private static ConnId conn(ObjectNode p) {
        return ConnId.of(p.get("conn").asText());
    }
}
