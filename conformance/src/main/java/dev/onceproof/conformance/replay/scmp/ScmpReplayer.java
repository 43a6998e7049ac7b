package dev.onceproof.conformance.replay.scmp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.conformance.trace.TraceStep;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.FixedRho;
import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.scmp.ScmpState;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.TimestampSource;
import dev.onceproof.storage.InMemoryStableStorage;
import dev.onceproof.storage.StableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Replays SCMP traces (specs/scmp/SCMP.tla) on {@link ScmpServer}, following the name table of
 * specs/CONVENTIONS.md. Before every step the injected clock is set to the state's clock (so Tick and
 * ClockJump need no call); after it the server's {@link ScmpState} must equal the trace's server
 * variables. Send is checked against the client's {@link TimestampSource}.
 */
public final class ScmpReplayer implements FamilyReplayer {

    /** Builds the core; tests pass one with a safeguard removed to show replay catches it. */
    @FunctionalInterface
    public interface ServerFactory {
        ScmpServer create(ScmpConfig config, ManualInstantSource clock, StableStorage storage);
    }

    private static final Set<String> ACTIONS = Set.of("Init", "Tick", "ClockJump", "Send", "Lose", "Receive",
            "CollectGarbage", "WriteLatest", "Crash", "Recover", "FinishRecovery");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ServerFactory factory;

    public ScmpReplayer() {
        this(ScmpServer::new);
    }

    public ScmpReplayer(ServerFactory factory) {
        this.factory = factory;
    }

    @Override
    public String spec() {
        return "SCMP";
    }

    @Override
    public Set<String> actions() {
        return ACTIONS;
    }

    @Override
    public Session start(TraceHeader header) {
        return new ScmpSession(config(header.constants()));
    }

    /** Mode, Beta, Epsilon, ClassOf and Rho exactly as the model set them (header constants). */
    static ScmpConfig config(ObjectNode c) {
        RecoveryScheme scheme = RecoveryScheme.fromSpecName(required(c, "Mode").asText());
        Map<String, LifetimeEstimator> rho = new TreeMap<>();
        required(c, "Rho").fields().forEachRemaining(e -> rho.put(e.getKey(), new FixedRho(e.getValue().asLong())));
        Map<String, String> classOf = new HashMap<>();
        required(c, "ClassOf").fields().forEachRemaining(e -> classOf.put(e.getKey(), e.getValue().asText()));
        return new ScmpConfig(scheme, required(c, "Beta").asLong(), required(c, "Epsilon").asLong(), rho,
                conn -> classOf.get(conn.value()));
    }

    private static JsonNode required(ObjectNode c, String name) {
        JsonNode v = c.get(name);
        if (v == null) {
            throw new IllegalArgumentException("the header's constants have no " + name + " (SCMP.tla CONSTANTS)");
        }
        return v;
    }

    private final class ScmpSession implements Session {

        private final ScmpConfig config;
        private final ManualInstantSource clock = new ManualInstantSource(0);
        private final InMemoryStableStorage storage = new InMemoryStableStorage();
        private final Map<String, TimestampSource> clients = new LinkedHashMap<>();
        private ScmpServer server;

        ScmpSession(ScmpConfig config) {
            this.config = config;
        }

        @Override
        public List<Mismatch> apply(TraceStep step) {
            ObjectNode s = step.state();
            ObjectNode p = step.params();
            clock.set(s.get("clock").asLong());
            List<Mismatch> out = new ArrayList<>();
            switch (step.action()) {
                case "Init" -> {
                    server = factory.create(config, clock, storage);
                    // 2.2: each client resumes from the spec's lastSent (skew - 1, "just before").
                    s.get("lastSent").fields().forEachRemaining(e ->
                            clients.put(e.getKey(), new TimestampSource(e.getValue().asLong())));
                }
                case "Tick", "ClockJump", "Lose" -> {
                    // No core call: the clock moved (or the network lost a message).
                }
                case "Send" -> {
                    String conn = p.get("conn").asText();
                    long reading = s.get("now").asLong() + s.get("skew").get(conn).asLong();
                    Timestamp ts = clients.get(conn).next(reading);
                    out.addAll(Mismatch.compare("ts", p.get("ts"), F.numberNode(ts.value())));
                    out.addAll(Mismatch.compare("lastSent." + conn, s.get("lastSent").get(conn),
                            F.numberNode(clients.get(conn).lastSent())));
                }
                case "Receive" -> {
                    String verdict = server.receive(ConnId.of(p.get("conn").asText()),
                            Timestamp.of(p.get("ts").asLong())).specName();
                    out.addAll(Mismatch.compare("verdict", p.get("verdict"), F.textNode(verdict)));
                }
                case "CollectGarbage" -> {
                    boolean removed = server.collectGarbage(ConnId.of(p.get("conn").asText()));
                    out.addAll(Mismatch.compare("removed", F.booleanNode(true), F.booleanNode(removed)));
                }
                case "WriteLatest" -> server.writeLatest();
                case "Crash" -> server.crash();
                case "Recover" -> server.recover();
                case "FinishRecovery" -> server.finishRecovery();
                default -> throw new IllegalArgumentException("no SCMP core call for action " + step.action());
            }
            out.addAll(Mismatch.compareAll(expected(s), actual(server.state())));
            return out;
        }
    }

    /** The trace's server variables (CONVENTIONS.md); an empty ct prints as <<>>, i.e. []. */
    private static Map<String, JsonNode> expected(ObjectNode s) {
        Map<String, JsonNode> m = new TreeMap<>();
        JsonNode ct = s.get("ct");
        m.put("ct", ct != null && ct.isArray() && ct.isEmpty() ? F.objectNode() : ct);
        for (String f : List.of("upper", "latest", "stableLatest", "up", "refuseUntil", "recovering")) {
            m.put(f, s.get(f));
        }
        return m;
    }

    private static Map<String, JsonNode> actual(ScmpState st) {
        Map<String, JsonNode> m = new TreeMap<>();
        ObjectNode ct = F.objectNode();
        st.ct().forEach((k, v) -> ct.put(k, v));
        ObjectNode upper = F.objectNode();
        st.upper().forEach((k, v) -> upper.put(k, v));
        m.put("ct", ct);
        m.put("upper", upper);
        m.put("latest", F.numberNode(st.latest()));
        m.put("stableLatest", F.numberNode(st.stableLatest()));
        m.put("up", F.booleanNode(st.up()));
        m.put("refuseUntil", F.numberNode(st.refuseUntil()));
        m.put("recovering", F.booleanNode(st.recovering()));
        return m;
    }
}
