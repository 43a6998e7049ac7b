package dev.onceproof.conformance.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.lincheck.LincheckOptions.Mode;
import dev.onceproof.conformance.lincheck.LincheckOptions.Suite;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Link 3 of the chain of trust (DESIGN.md) for the RPC server: the real
 * {@link dev.onceproof.rpc.core.ConcurrentRpcServer} is linearizable with respect to the sequential
 * {@link dev.onceproof.rpc.core.RpcServerCore}, never executes a call twice and keeps its table and
 * SCMP's in step, in both schemes its runtime restarts it in, with every public mutator as an
 * operation. Model checking and stress mode, with the suites of {@link LincheckOptions}
 * (stress mode with fewer runs in the build, the full count under {@code -Pdeep});
 * {@link RpcReorderingsLincheckTest} shows they catch each forbidden reordering.
 */
class ConcurrentRpcServerLincheckTest {

    static Mode[] modes() {
        return Mode.forTheRealClasses();
    }

    @ParameterizedTest
    @MethodSource("modes")
    void monotonic(Mode mode) {
        assertThat(LincheckRun.failure(MonotonicRpcLincheck.class,
                Suite.RPC_MONOTONIC.options(MonotonicRpcLincheck.class, mode))).isNull();
    }

    @ParameterizedTest
    @MethodSource("modes")
    void resilient(Mode mode) {
        assertThat(LincheckRun.failure(ResilientRpcLincheck.class,
                Suite.RPC_RESILIENT.options(ResilientRpcLincheck.class, mode))).isNull();
    }
}
