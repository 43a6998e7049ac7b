package dev.onceproof.conformance.lincheck.causal;

import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ManualTicker;
import dev.onceproof.causal.Payload;

/**
 * Lincheck's sequential specification: the core trace replay ties to the spec, {@link CausalNode},
 * with the same operations as the concurrent test classes.
 */
public class SequentialCausal {

    private final CausalWorld world = new CausalWorld();
    private final CausalNode node = new CausalNode(world.config, new ManualTicker(0));

    public String receive(int message) {
        return CausalWorld.result(node.handle(world.message(message)));
    }

    public String broadcast() {
        return CausalWorld.result(node.broadcast(Payload.EMPTY));
    }
}
