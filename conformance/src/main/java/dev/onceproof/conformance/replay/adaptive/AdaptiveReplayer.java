package dev.onceproof.conformance.replay.adaptive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.conformance.trace.TraceStep;
import dev.onceproof.scmp.ConnId;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Replays traces of the standard-form skeleton (specs/adaptive/Adaptive.tla, Chaudhuri-Coan-Welch
 * Fig. 1) on {@link ScmpServer}: non-resilient, one class, with a {@link ScriptedEstimator} that
 * returns the estimate each CollectGarbage step recorded. Names follow the Adaptive table of
 * specs/CONVENTIONS.md. Before every step the clock is set to the state's clock; after it the core
 * must agree with the trace on ct, upper and ltimeEst, and a Receive on the verdict, on whether the
 * rejection was a summary-rejection, and on the lifetime clock - stamp given to the estimator.
 */
public final class AdaptiveReplayer implements FamilyReplayer {

    /** Builds the core; tests pass one with a safeguard removed to show replay catches it. */
    @FunctionalInterface
    public interface ServerFactory {
        ScmpServer create(ScmpConfig config, ManualInstantSource clock, StableStorage storage);
    }

    /** The core's one rho class; the spec has a single upper (Fig. 1). */
    static final String CLASS = ScmpConfig.DEFAULT_CLASS;

    private static final Set<String> ACTIONS = Set.of("Init", "Tick", "ClockJump", "Send", "Lose", "Receive",
            "CollectGarbage");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ServerFactory factory;

    public AdaptiveReplayer() {
        this(ScmpServer::new);
    }

    public AdaptiveReplayer(ServerFactory factory) {
        this.factory = factory;
    }

    @Override
    public String spec() {
        return "Adaptive";
    }

    @Override
    public Set<String> actions() {
        return ACTIONS;
    }

    @Override
    public Session start(TraceHeader header) {
        JsonNode init = header.constants().get("InitEst");
        if (init == null || !init.isIntegralNumber()) {
            throw new IllegalArgumentException("the header's constants have no integer InitEst (Adaptive.tla CONSTANTS)");
        }
        return new AdaptiveSession(init.asLong());
    }

    private final class AdaptiveSession implements Session {

        private final ScriptedEstimator estimator;
        private final ManualInstantSource clock = new ManualInstantSource(0);
        private final Map<String, TimestampSource> clients = new LinkedHashMap<>();
        private ScmpServer server;

        AdaptiveSession(long initEst) {
            this.estimator = new ScriptedEstimator(initEst);
        }

        @Override
        public List<Mismatch> apply(TraceStep step) {
            ObjectNode s = step.state();
            ObjectNode p = step.params();
            clock.set(s.get("clock").asLong());
            List<Mismatch> out = new ArrayList<>();
            switch (step.action()) {
                case "Init" -> {
                    // Fig. 1 standard form on Liskov et al.'s non-resilient server (Fig. 2-1), one class.
                    server = factory.create(ScmpConfig.singleClass(RecoveryScheme.NON_RESILIENT, 0, 0, estimator),
                            clock, new InMemoryStableStorage());
                    s.get("lastSent").fields().forEachRemaining(e ->
                            clients.put(e.getKey(), new TimestampSource(e.getValue().asLong())));
                }
                case "Tick", "ClockJump", "Lose" -> {
                    // No core call: the clock moved, or the network lost a message.
                }
                case "Send" -> {
                    String conn = p.get("conn").asText();
                    long reading = s.get("now").asLong() + s.get("skew").get(conn).asLong();
                    Timestamp ts = clients.get(conn).next(reading);
                    out.addAll(Mismatch.compare("ts", p.get("ts"), F.numberNode(ts.value())));
                }
                case "Receive" -> {
                    long ts = p.get("ts").asLong();
                    String verdict = server.receive(ConnId.of(p.get("conn").asText()), Timestamp.of(ts)).specName();
                    out.addAll(Mismatch.compare("verdict", p.get("verdict"), F.textNode(verdict)));
                    out.addAll(Mismatch.compare("summaryRejected", p.get("summaryRejected"),
                            F.booleanNode(estimator.lastSummaryRejected())));
                    out.addAll(Mismatch.compare("lifetime", F.numberNode(s.get("clock").asLong() - ts),
                            F.numberNode(estimator.lastLifetime())));
                }
                case "CollectGarbage" -> {
                    estimator.script(p.get("est").asLong());
                    server.collectGarbage();
                }
                default -> throw new IllegalArgumentException("no core call for Adaptive action " + step.action());
            }
            out.addAll(Mismatch.compareAll(expected(s), actual(server.state(), estimator)));
            return out;
        }
    }

    /** The trace's server variables; an empty ct prints as <<>>, i.e. []. */
    private static Map<String, JsonNode> expected(ObjectNode s) {
        Map<String, JsonNode> m = new TreeMap<>();
        JsonNode ct = s.get("ct");
        m.put("ct", ct != null && ct.isArray() && ct.isEmpty() ? F.objectNode() : ct);
        m.put("upper", s.get("upper"));
        m.put("ltimeEst", s.get("ltimeEst"));
        return m;
    }

    private static Map<String, JsonNode> actual(ScmpState st, ScriptedEstimator estimator) {
        Map<String, JsonNode> m = new TreeMap<>();
        ObjectNode ct = F.objectNode();
        st.ct().forEach(ct::put);
        m.put("ct", ct);
        Long upper = st.upper().get(CLASS);
        m.put("upper", upper == null ? null : F.numberNode(upper));
        m.put("ltimeEst", F.numberNode(estimator.current()));
        return m;
    }
}
