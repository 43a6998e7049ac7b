package dev.onceproof.conformance.replay.adaptive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.conformance.trace.TraceStep;
import dev.onceproof.scmp.ConnId;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One replay of a trace of the standard-form skeleton (Adaptive.tla, Fig. 1) or of an algorithm
 * built on it (Figs. 2 and 3) on {@link ScmpServer}: non-resilient, one class. Before every step the
 * clock is set to the state's clock; after it the core must agree with the trace on ct, upper and
 * ltimeEst, after a Receive also on the verdict, the summary-rejected flag and the lifetime given to
 * the estimator, plus whatever the family adds ({@code extra}: expected and actual, per field).
 */
final class CoreSession implements FamilyReplayer.Session {

    /** Builds the core; tests pass one with a safeguard removed to show replay catches it. */
    @FunctionalInterface
    interface ServerFactory {
        ScmpServer create(ScmpConfig config, ManualInstantSource clock, StableStorage storage);
    }

    static final Set<String> ACTIONS = Set.of("Init", "Tick", "ClockJump", "Send", "Lose", "Receive",
            "CollectGarbage");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ServerFactory factory;
    private final RecordingEstimator estimator;
    private final Consumer<ObjectNode> beforeCollect;
    private final Function<ObjectNode, Map<String, JsonNode>> extraExpected;
    private final Supplier<Map<String, JsonNode>> extraActual;
    private final ManualInstantSource clock = new ManualInstantSource(0);
    private final Map<String, TimestampSource> clients = new LinkedHashMap<>();
    private ScmpServer server;

    CoreSession(ServerFactory factory, LifetimeEstimator estimator, Consumer<ObjectNode> beforeCollect,
            Function<ObjectNode, Map<String, JsonNode>> extraExpected,
            Supplier<Map<String, JsonNode>> extraActual) {
        this.factory = factory;
        this.estimator = new RecordingEstimator(estimator);
        this.beforeCollect = beforeCollect;
        this.extraExpected = extraExpected;
        this.extraActual = extraActual;
    }

    @Override
    public List<Mismatch> apply(TraceStep step) {
        ObjectNode s = step.state();
        ObjectNode p = step.params();
        clock.set(s.get("clock").asLong());
        List<Mismatch> out = new ArrayList<>();
        switch (step.action()) {
            case "Init" -> {
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
                beforeCollect.accept(p);
                server.collectGarbage();
            }
            default -> throw new IllegalArgumentException("no core call for action " + step.action());
        }
        Map<String, JsonNode> expected = expected(s);
        expected.putAll(extraExpected.apply(s));
        Map<String, JsonNode> actual = actual(server.state());
        actual.putAll(extraActual.get());
        out.addAll(Mismatch.compareAll(expected, actual));
        return out;
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

    private Map<String, JsonNode> actual(ScmpState st) {
        Map<String, JsonNode> m = new TreeMap<>();
        ObjectNode ct = F.objectNode();
        st.ct().forEach(ct::put);
        m.put("ct", ct);
        Long upper = st.upper().get(ScmpConfig.DEFAULT_CLASS); // the spec's single upper (Fig. 1)
        m.put("upper", upper == null ? null : F.numberNode(upper));
        m.put("ltimeEst", F.numberNode(estimator.current()));
        return m;
    }
}
