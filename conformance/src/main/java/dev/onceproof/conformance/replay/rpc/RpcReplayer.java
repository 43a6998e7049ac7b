package dev.onceproof.conformance.replay.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.conformance.trace.TraceStep;
import dev.onceproof.rpc.core.ClientEffect;
import dev.onceproof.rpc.core.ClientState;
import dev.onceproof.rpc.core.ClientStep;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.core.RpcClientCore;
import dev.onceproof.rpc.core.RpcServerCore;
import dev.onceproof.rpc.core.RpcServerState;
import dev.onceproof.rpc.core.ServerEntry;
import dev.onceproof.rpc.core.ServerStep;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.FixedRho;
import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.InMemoryStableStorage;
import dev.onceproof.storage.StableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Replays RPC traces (specs/rpc/RPC.tla) on {@link RpcServerCore} and one {@link RpcClientCore} per
 * connection, following the RPC name table of specs/CONVENTIONS.md. Before every step the server's
 * clock is set to the state's clock and each client's to now + skew; after it the server's
 * {@link RpcServerState} and every client's {@link ClientState} must equal the trace's variables,
 * and the step's outcome (ReceiveCall, Complete, ReceiveReplyAck) or acceptance (client receives)
 * must be the one the spec recorded.
 *
 * <p>The spec models a call's result as the call's own timestamp; the replayer completes a call
 * with the payload "ts" and reads stored replies back the same way, so a reply mixed up between
 * calls shows as a mismatch.
 */
public final class RpcReplayer implements FamilyReplayer {

    /** Builds the server core; tests pass one with a safeguard removed to show replay catches it. */
    @FunctionalInterface
    public interface ServerFactory {
        RpcServerCore create(ScmpConfig config, ManualInstantSource clock, StableStorage storage, long kappa);
    }

    private static final Set<String> ACTIONS = Set.of("Init", "Call", "Retransmit", "Timeout", "ReceiveAck",
            "ReceiveReply", "ReceiveReject", "ReceiveCall", "Complete", "ReceiveReplyAck", "CollectGarbage",
            "WriteLatest", "Crash", "Recover", "Tick", "Lose");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** The arguments of every call: the spec does not model them. */
    static final Payload ARGS = Payload.ofUtf8("args");

    private final ServerFactory factory;

    public RpcReplayer() {
        this(RpcServerCore::new);
    }

    public RpcReplayer(ServerFactory factory) {
        this.factory = factory;
    }

    @Override
    public String spec() {
        return "RPC";
    }

    @Override
    public Set<String> actions() {
        return ACTIONS;
    }

    @Override
    public Session start(TraceHeader header) {
        return new RpcSession(header.constants());
    }

    /** The resilient SCMP server of Fig. 2-2 with the model's Beta, Epsilon, ClassOf and Rho. */
    static ScmpConfig config(ObjectNode c) {
        Map<String, LifetimeEstimator> rho = new TreeMap<>();
        required(c, "Rho").fields().forEachRemaining(e -> rho.put(e.getKey(), new FixedRho(e.getValue().asLong())));
        Map<String, String> classOf = new HashMap<>();
        required(c, "ClassOf").fields().forEachRemaining(e -> classOf.put(e.getKey(), e.getValue().asText()));
        return new ScmpConfig(RecoveryScheme.RESILIENT, required(c, "Beta").asLong(),
                required(c, "Epsilon").asLong(), rho, conn -> classOf.get(conn.value()));
    }

    static JsonNode required(ObjectNode c, String name) {
        JsonNode v = c.get(name);
        if (v == null) {
            throw new IllegalArgumentException("the header's constants have no " + name + " (RPC.tla CONSTANTS)");
        }
        return v;
    }

    /** The result the spec gives call ts: its own timestamp. */
    static Payload resultOf(long ts) {
        return Payload.ofUtf8(Long.toString(ts));
    }

    private final class RpcSession implements Session {

        private final ObjectNode constants;
        private final ScmpConfig config;
        private final ManualInstantSource clock = new ManualInstantSource(0);
        private final InMemoryStableStorage storage = new InMemoryStableStorage();
        private final Map<String, ManualInstantSource> clientClocks = new TreeMap<>();
        private final Map<String, RpcClientCore> clients = new TreeMap<>();
        private RpcServerCore server;

        RpcSession(ObjectNode constants) {
            this.constants = constants;
            this.config = config(constants);
        }

        @Override
        public List<Mismatch> apply(TraceStep step) {
            ObjectNode s = step.state();
            ObjectNode p = step.params();
            clock.set(s.get("clock").asLong());
            clientClocks.forEach((c, k) -> k.set(s.get("now").asLong() + s.get("skew").get(c).asLong()));
            List<Mismatch> out = new ArrayList<>();
            switch (step.action()) {
                case "Init" -> init(s);
                case "Tick", "Lose" -> {
                    // No core call: time moved, or the network lost a message.
                }
                case "Call" -> {
                    ClientStep cs = client(p).call(ARGS);
                    out.addAll(Mismatch.compare("sent", F.textNode(new RpcMessage.Call(conn(p), ts(p), ARGS).toString()),
                            F.textNode(sent(cs))));
                }
                case "Retransmit" -> {
                    ClientStep cs = client(p).retransmit();
                    RpcMessage expected = p.get("truncated").asBoolean()
                            ? new RpcMessage.TruncatedCall(conn(p), ts(p)) : new RpcMessage.Call(conn(p), ts(p), ARGS);
                    out.addAll(Mismatch.compare("sent", F.textNode(expected.toString()), F.textNode(sent(cs))));
                }
                case "Timeout" -> client(p).timeout();
                case "ReceiveAck" -> out.addAll(clientReceive(p, new RpcMessage.Ack(conn(p), ts(p))));
                case "ReceiveReject" -> out.addAll(clientReceive(p, new RpcMessage.Reject(conn(p), ts(p))));
                case "ReceiveReply" -> out.addAll(clientReceive(p,
                        new RpcMessage.Reply(conn(p), ts(p), resultOf(p.get("payload").asLong()))));
                case "ReceiveCall" -> {
                    RpcMessage m = p.get("truncated").asBoolean()
                            ? new RpcMessage.TruncatedCall(conn(p), ts(p)) : new RpcMessage.Call(conn(p), ts(p), ARGS);
                    ServerStep st = server.receive(m);
                    out.addAll(outcome(p, st));
                    out.addAll(effects(p, st, s));
                }
                case "Complete" -> {
                    ServerStep st = server.complete(conn(p), ts(p), resultOf(ts(p).value()));
                    out.addAll(outcome(p, st));
                    out.addAll(effects(p, st, s));
                }
                case "ReceiveReplyAck" -> out.addAll(outcome(p, server.receive(new RpcMessage.ReplyAck(conn(p), ts(p)))));
                case "CollectGarbage" -> {
                    boolean removed = server.collectGarbage(conn(p));
                    out.addAll(Mismatch.compare("removed", F.booleanNode(true), F.booleanNode(removed)));
                }
                case "WriteLatest" -> server.writeLatest();
                case "Crash" -> server.crash();
                case "Recover" -> server.recover();
                default -> throw new IllegalArgumentException("no RPC core call for action " + step.action());
            }
            out.addAll(Mismatch.compareAll(expected(s), actual()));
            return out;
        }

        private void init(ObjectNode s) {
            server = factory.create(config, clock, storage, required(constants, "Kappa").asLong());
            RetryPolicy policy = new RetryPolicy(1, required(constants, "MaxTries").asInt());
            s.get("client").fields().forEachRemaining(e -> {
                ManualInstantSource k = new ManualInstantSource(s.get("now").asLong() + s.get("skew").get(e.getKey()).asLong());
                clientClocks.put(e.getKey(), k);
                // 2.2: each client resumes from the spec's initial last call id (skew - 1).
                clients.put(e.getKey(), new RpcClientCore(ConnId.of(e.getKey()), k, policy,
                        e.getValue().get("ts").asLong()));
            });
        }

        private List<Mismatch> clientReceive(ObjectNode p, RpcMessage m) {
            ClientStep cs = client(p).receive(m);
            return Mismatch.compare("accepted", p.get("accepted"), F.booleanNode(!cs.ignored()));
        }

        private RpcClientCore client(ObjectNode p) {
            return clients.get(p.get("conn").asText());
        }

        private Map<String, JsonNode> actual() {
            Map<String, JsonNode> m = new TreeMap<>();
            RpcServerState st = server.state();
            ObjectNode rpc = F.objectNode();
            ObjectNode ct = F.objectNode();
            st.scmp().ct().forEach(ct::put);
            for (Map.Entry<String, ServerEntry> e : st.rpc().entrySet()) {
                ServerEntry entry = e.getValue();
                ObjectNode o = rpc.putObject(e.getKey());
                o.put("state", entry.state().specName());
                ArrayNode reply = o.putArray("reply");
                entry.reply().ifPresent(r -> reply.add(Long.parseLong(r.toUtf8())));
                o.put("replyTime", entry.replyTime());
                // The entry's ts is SCMP's ct in the spec: the two must agree.
                Long scmpTs = st.scmp().ct().get(e.getKey());
                if (scmpTs == null || scmpTs != entry.ts().value()) {
                    o.put("tsDiffersFromCt", entry.ts().value());
                }
            }
            m.put("rpc", rpc);
            m.put("ct", ct);
            ObjectNode upper = F.objectNode();
            st.scmp().upper().forEach(upper::put);
            m.put("upper", upper);
            m.put("latest", F.numberNode(st.scmp().latest()));
            m.put("stableLatest", F.numberNode(st.scmp().stableLatest()));
            m.put("up", F.booleanNode(st.scmp().up()));
            m.put("refuseUntil", F.numberNode(st.scmp().refuseUntil()));
            m.put("recovering", F.booleanNode(st.scmp().recovering()));
            ObjectNode cl = F.objectNode();
            clients.forEach((c, core) -> {
                ClientState cs = core.state();
                ObjectNode o = cl.putObject(c);
                o.put("waiting", cs.waiting());
                o.put("ts", cs.ts());
                o.put("acked", cs.acked());
                o.put("tries", cs.tries());
                o.put("outcome", cs.outcome().specName());
            });
            m.put("client", cl);
            return m;
        }
    }

    /** The trace's server and client variables; an empty function prints as <<>>, i.e. []. */
    private static Map<String, JsonNode> expected(ObjectNode s) {
        Map<String, JsonNode> m = new TreeMap<>();
        for (String f : List.of("rpc", "ct")) {
            JsonNode v = s.get(f);
            m.put(f, v != null && v.isArray() && v.isEmpty() ? F.objectNode() : v);
        }
        for (String f : List.of("upper", "latest", "stableLatest", "up", "refuseUntil", "recovering", "client")) {
            m.put(f, s.get(f));
        }
        return m;
    }

    private static List<Mismatch> outcome(ObjectNode p, ServerStep step) {
        return Mismatch.compare("outcome", p.get("outcome"), F.textNode(step.outcome().specName()));
    }

    /**
     * What the spec's step put into the network (or started) for this outcome, against the core's
     * effects: the right message type, call id and, for a REPLY, the stored result.
     */
    private static List<Mismatch> effects(ObjectNode p, ServerStep step, ObjectNode s) {
        ConnId c = conn(p);
        Timestamp t = ts(p);
        List<String> expected = switch (p.get("outcome").asText()) {
            case "execute" -> List.of(new dev.onceproof.rpc.core.ServerEffect.Execute(c, t, ARGS).toString());
            case "ack" -> List.of(send(new RpcMessage.Ack(c, t)));
            case "reject" -> List.of(send(new RpcMessage.Reject(c, t)));
            case "retransmitReply" -> List.of(send(new RpcMessage.Reply(c, t,
                    resultOf(s.get("rpc").get(c.value()).get("reply").get(0).asLong()))));
            case "reply" -> List.of(send(new RpcMessage.Reply(c, t, resultOf(t.value()))));
            default -> List.of();
        };
        List<String> actual = step.effects().stream().map(Object::toString).toList();
        return expected.equals(actual) ? List.of()
                : List.of(new Mismatch("effects", expected.toString(), actual.toString()));
    }

    private static String send(RpcMessage m) {
        return new dev.onceproof.rpc.core.ServerEffect.Send(m).toString();
    }

    private static String sent(ClientStep cs) {
        return cs.effects().stream().filter(e -> e instanceof ClientEffect.Send).map(e -> ((ClientEffect.Send) e)
                .message().toString()).findFirst().orElse("(nothing sent)");
    }

    private static ConnId conn(ObjectNode p) {
        return ConnId.of(p.get("conn").asText());
    }

    private static Timestamp ts(ObjectNode p) {
        return Timestamp.of(p.get("ts").asLong());
    }
}
