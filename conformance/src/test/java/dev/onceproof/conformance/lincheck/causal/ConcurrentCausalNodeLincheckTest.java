package dev.onceproof.conformance.lincheck.causal;

import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Link 3 of the chain of trust for causal broadcast: {@link ConcurrentCausalNode}, which the UDP
 * runtime's receiver and timer threads share, is linearizable with respect to the sequential
 * {@link CausalNode} ({@link SequentialCausal}), and in every explored interleaving its application
 * is handed events in causal order, each once. Model checking explores interleavings exhaustively
 * within its bounds; stress runs them on real threads (2 x 100 runs in the build, 5 x 200 under
 * {@code -Pdeep}, issue 18's budget); the racy control ({@link RacyHandOffLincheckTest}) is caught
 * by model checking.
 */
public class ConcurrentCausalNodeLincheckTest extends CausalLincheckBase {

    @Override
    ConcurrentCausalNode build(CausalNode core, CausalWorld.Application app) {
        return new ConcurrentCausalNode(core, app);
    }

    @Test
    void modelChecking() {
        LinChecker.check(ConcurrentCausalNodeLincheckTest.class, CausalLincheckOptions.modelChecking(
                ConcurrentCausalNodeLincheckTest.class, SequentialCausal.class, CausalLincheckOptions.SCENARIOS));
    }

    @Test
    void stress() {
        LinChecker.check(ConcurrentCausalNodeLincheckTest.class,
                CausalLincheckOptions.stress(ConcurrentCausalNodeLincheckTest.class));
    }
}
