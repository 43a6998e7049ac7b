package dev.onceproof.conformance.lincheck.causal;

import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.ManualTicker;
import dev.onceproof.causal.Payload;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;

/**
 * What the causal Lincheck tests share, for the real {@link ConcurrentCausalNode} and the racy
 * control alike: the world of {@link CausalWorld}, the operations (Receive of one of its messages,
 * and Broadcast; no timer operation: the world's clock never moves, so a poll would do nothing), and the check that the application, in every explored
 * interleaving, was handed events in causal order and each once.
 */
@Param(name = "message", gen = IntGen.class, conf = "0:3")
public abstract class CausalLincheckBase {

    final CausalWorld world = new CausalWorld();
    final CausalWorld.Application application = new CausalWorld.Application();
    private final ConcurrentCausalNode node = build(new CausalNode(world.config, new ManualTicker(0)), application);

    abstract ConcurrentCausalNode build(CausalNode core, CausalWorld.Application app);

    @Operation
    public String receive(@Param(name = "message") int message) {
        return CausalWorld.result(node.handle(world.message(message)));
    }

    @Operation
    public String broadcast() {
        return CausalWorld.result(node.broadcast(Payload.EMPTY));
    }

    @Validate
    public void applicationSawCausalOrderOnce() {
        application.validate();
    }
}
