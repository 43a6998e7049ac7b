package dev.onceproof.conformance.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.lincheck.LincheckOptions.Mode;
import dev.onceproof.conformance.lincheck.LincheckOptions.Suite;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Link 3 of the chain of trust (DESIGN.md): the real {@link dev.onceproof.scmp.ConcurrentScmpFilter}
 * is linearizable with respect to the sequential core and no interleaving accepts one message twice
 * (nor, resilient, above stable latest), in both schemes that restart it, with every public mutator
 * as an operation: receive, collectGarbage(c), the full pass, writeLatest or finishRecovery, and a
 * crash and recovery. Model checking and stress mode, with the suites of {@link LincheckOptions}
 * (stress mode with fewer runs in the build, the full count under {@code -Pdeep});
 * {@link FilterReorderingsLincheckTest} shows they catch each forbidden reordering.
 */
class ConcurrentScmpFilterLincheckTest {

    static Mode[] modes() {
        return Mode.forTheRealClasses();
    }

    @ParameterizedTest
    @MethodSource("modes")
    void monotonic(Mode mode) {
        assertThat(LincheckRun.failure(MonotonicFilterLincheck.class,
                Suite.FILTER_MONOTONIC.options(MonotonicFilterLincheck.class, mode))).isNull();
    }

    @ParameterizedTest
    @MethodSource("modes")
    void resilient(Mode mode) {
        assertThat(LincheckRun.failure(ResilientFilterLincheck.class,
                Suite.FILTER_RESILIENT.options(ResilientFilterLincheck.class, mode))).isNull();
    }
}
