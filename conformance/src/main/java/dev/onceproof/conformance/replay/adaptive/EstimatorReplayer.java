package dev.onceproof.conformance.replay.adaptive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.adaptive.LimitedHorizonEstimator;
import dev.onceproof.adaptive.UnlimitedHorizonEstimator;
import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.scmp.ScmpServer;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Replays traces of the unlimited horizon (specs/adaptive/AdaptiveUnlimited.tla, Fig. 2) or the
 * limited horizon (AdaptiveLimited.tla, Fig. 3) algorithm on {@link ScmpServer} with the real
 * {@link UnlimitedHorizonEstimator} or {@link LimitedHorizonEstimator}: besides what {@link
 * CoreSession} compares, after every step the estimator's variables must equal the spec's
 * (numacc, numrej, maxltime, ltimes, and p for Fig. 2). The estimate is computed by the Java code,
 * not scripted, so this is where the figures' arithmetic meets the spec.
 */
public final class EstimatorReplayer implements FamilyReplayer {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final String spec;
    private final CoreSession.ServerFactory factory;

    private EstimatorReplayer(String spec, CoreSession.ServerFactory factory) {
        this.spec = spec;
        this.factory = factory;
    }

    /** Fig. 2, spec AdaptiveUnlimited. */
    public static EstimatorReplayer unlimited() {
        return new EstimatorReplayer("AdaptiveUnlimited", ScmpServer::new);
    }

    /** Fig. 3, spec AdaptiveLimited (S, H, P from the header's constants). */
    public static EstimatorReplayer limited() {
        return new EstimatorReplayer("AdaptiveLimited", ScmpServer::new);
    }

    @Override
    public String spec() {
        return spec;
    }

    @Override
    public Set<String> actions() {
        return CoreSession.ACTIONS;
    }

    @Override
    public Session start(TraceHeader header) {
        if (spec.equals("AdaptiveUnlimited")) {
            JsonNode reading = header.constants().get("Reading");
            if (reading == null || !reading.isTextual()) {
                throw new IllegalArgumentException("the header's constants have no string Reading"
                        + " (AdaptiveUnlimited.tla CONSTANTS)");
            }
            UnlimitedHorizonEstimator est = new UnlimitedHorizonEstimator(
                    UnlimitedHorizonEstimator.Reading.ofSpecName(reading.asText()));
            return new CoreSession(factory, est, params -> { }, s -> {
                Map<String, JsonNode> m = fields(s, "p", "numacc", "numrej", "maxltime");
                m.put("max(ltimes U {0})", max0(s.get("ltimes")));
                return m;
            },
                    () -> {
                        UnlimitedHorizonEstimator.State st = est.state();
                        Map<String, JsonNode> m = new TreeMap<>();
                        m.put("p", F.numberNode(st.p()));
                        m.put("numacc", F.numberNode(st.numacc()));
                        m.put("numrej", F.numberNode(st.numrej()));
                        m.put("maxltime", F.numberNode(st.maxltime()));
                        m.put("max(ltimes U {0})", F.numberNode(st.periodMax()));
                        return m;
                    });
        }
        ObjectNode c = header.constants();
        LimitedHorizonEstimator est = new LimitedHorizonEstimator(required(c, "S").asInt(),
                required(c, "H").asInt(), required(c, "P").asLong());
        return new CoreSession(factory, est, params -> { },
                s -> fields(s, "numacc", "numrej", "maxltime", "ltimes"),
                () -> {
                    LimitedHorizonEstimator.State st = est.state();
                    Map<String, JsonNode> m = new TreeMap<>();
                    m.put("numacc", F.numberNode(st.numacc()));
                    m.put("numrej", F.numberNode(st.numrej()));
                    m.put("maxltime", F.numberNode(st.maxltime()));
                    ArrayNode lt = F.arrayNode();
                    for (long l : st.ltimes()) {
                        lt.add(l);
                    }
                    m.put("ltimes", lt);
                    return m;
                });
    }

    /** The named variables of a trace state (absent ones as null, reported as "(absent)"). */
    private static Map<String, JsonNode> fields(ObjectNode s, String... names) {
        Map<String, JsonNode> m = new TreeMap<>();
        for (String n : names) {
            m.put(n, s.get(n));
        }
        return m;
    }

    /** max(ltimes U {0}) of the trace's ltimes (a JSON array; an empty sequence may print as []). */
    private static JsonNode max0(JsonNode ltimes) {
        long max = 0;
        for (JsonNode v : ltimes == null ? F.arrayNode() : ltimes) {
            max = Math.max(max, v.asLong());
        }
        return F.numberNode(max);
    }

    private static JsonNode required(ObjectNode c, String name) {
        JsonNode v = c.get(name);
        if (v == null || !v.isIntegralNumber()) {
            throw new IllegalArgumentException("the header's constants have no integer " + name
                    + " (AdaptiveLimited.tla CONSTANTS)");
        }
        return v;
    }
}
