package dev.onceproof.conformance.lincheck;

import dev.onceproof.conformance.TestDepth;
import org.jetbrains.kotlinx.lincheck.Options;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;

/**
 * The four suites (filter and RPC server, monotonic and resilient) and their bounds, one place for
 * the real classes and their reorderings alike, so that a reordering test shows what the suite as
 * it runs catches. Each suite is its world's targeted scenarios ({@link Scenarios}) plus a few random
 * ones.
 *
 * <p>Measured at these numbers (loaded machine, load average 20-45 on 2 cores, so times are upper
 * bounds): model checking caught all 7 reorderings of {@link FilterReorderingsLincheckTest} and
 * {@link RpcReorderingsLincheckTest}, stress mode 4 of them (RecoveringClearedBeforeUpper,
 * UpperRaisedAfterRemoval, CallJudgedOutsideSection, TruncatedCallJudgedOutsideSection). Not done:
 * a search for smaller numbers (each measurement took about ten minutes on the loaded machine);
 * the targeted scenarios are short (two to four operations), so 30 interleavings each is already
 * small, and the random scenarios (2) are there for what no one targeted: they found the double
 * finishRecovery race, which no targeted scenario had.
 */
final class LincheckOptions {

    /**
     * Random scenarios besides the targeted ones (2 threads x 3 operations, 1 before, 1 after): 1 in
     * the build, 2 under {@code -Pdeep} (issue 18's budget). Lincheck runs the targeted scenarios
     * first, and every reordering is caught at a targeted one, so the controls do not depend on it.
     */
    static final int RANDOM_SCENARIOS = TestDepth.pick(1, 2);
    /**
     * Interleavings model checking explores per scenario, in the build too: at 15,
     * LatestPublishedBeforeDurable was missed in both modes (measured 2026-11-27, load 5-12).
     */
    static final int INTERLEAVINGS = 30;
    /**
     * Runs of each scenario in stress mode: 50 in the build, 300 under {@code -Pdeep}. The build
     * keeps stress mode (model checking explores a bounded set of interleavings of the instrumented
     * code; stress mode runs the real code on real threads, without instrumentation) at a sixth of
     * its deep cost.
     */
    static final int STRESS_RUNS = TestDepth.pick(50, 300);
    /**
     * How long one invocation may take before Lincheck reports a hang. Its default (10 s) was hit
     * under load (load average 20 on 2 cores) while Lincheck transformed classes in the middle of an
     * invocation; a real deadlock is still reported, only later.
     */
    static final long INVOCATION_TIMEOUT_MS = 120_000;

    enum Mode {
        MODEL_CHECKING, STRESS;

        /**
         * The modes the real classes' suites run in: both, in the build too (stress mode with
         * fewer runs, {@link #STRESS_RUNS}). Stress mode caught 4 of the 7 reorderings, each also
         * caught by model checking.
         */
        static Mode[] forTheRealClasses() {
            return values();
        }
    }

    enum Suite {
        FILTER_MONOTONIC(SequentialScmp.Monotonic.class, MonotonicFilterLincheck.SCENARIOS),
        FILTER_RESILIENT(SequentialScmp.Resilient.class, ResilientFilterLincheck.SCENARIOS),
        RPC_MONOTONIC(SequentialRpc.Monotonic.class, MonotonicRpcLincheck.SCENARIOS),
        RPC_RESILIENT(SequentialRpc.Resilient.class, ResilientRpcLincheck.SCENARIOS);

        private final Class<?> sequential;
        private final String[][] scenarios;

        Suite(Class<?> sequential, String[][] scenarios) {
            this.sequential = sequential;
            this.scenarios = scenarios;
        }

        /** Lincheck options for testClass (the real class's operations, or a reordering's). */
        Options<?, ?> options(Class<?> testClass, Mode mode) {
            return mode == Mode.MODEL_CHECKING
                    ? shape(new ModelCheckingOptions(), testClass).invocationsPerIteration(INTERLEAVINGS)
                    : shape(new StressOptions(), testClass).invocationsPerIteration(STRESS_RUNS);
        }

        private <O extends Options<O, ?>> O shape(O options, Class<?> testClass) {
            options.sequentialSpecification(sequential).iterations(RANDOM_SCENARIOS).threads(2).actorsPerThread(3)
                    .actorsBefore(1).actorsAfter(1)
                    // internal in Lincheck 2.39 (Kotlin's mangled name), the only way to set it
                    .invocationTimeout$lincheck(INVOCATION_TIMEOUT_MS);
            return Scenarios.with(options, testClass, scenarios);
        }
    }

    private LincheckOptions() {
    }
}
