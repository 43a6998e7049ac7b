package dev.onceproof.conformance.replay.adaptive;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.storage.StableStorage;
import java.util.Map;
import java.util.Set;

/**
 * Replays traces of the standard-form skeleton (specs/adaptive/Adaptive.tla, Chaudhuri-Coan-Welch
 * Fig. 1) on {@link ScmpServer} with a {@link ScriptedEstimator} that returns the estimate each
 * CollectGarbage step recorded. Names follow the Adaptive table of specs/CONVENTIONS.md; what is
 * compared is described in {@link CoreSession}.
 */
public final class AdaptiveReplayer implements FamilyReplayer {

    /** Builds the core; tests pass one with a safeguard removed to show replay catches it. */
    @FunctionalInterface
    public interface ServerFactory {
        ScmpServer create(ScmpConfig config, ManualInstantSource clock, StableStorage storage);
    }

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
        return CoreSession.ACTIONS;
    }

    @Override
    public Session start(TraceHeader header) {
        JsonNode init = header.constants().get("InitEst");
        if (init == null || !init.isIntegralNumber()) {
            throw new IllegalArgumentException("the header's constants have no integer InitEst (Adaptive.tla CONSTANTS)");
        }
        ScriptedEstimator scripted = new ScriptedEstimator(init.asLong());
        return new CoreSession(factory::create, scripted, params -> scripted.script(params.get("est").asLong()),
                state -> Map.of(), Map::of);
    }
}
