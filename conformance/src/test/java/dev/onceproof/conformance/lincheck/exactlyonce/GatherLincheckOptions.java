package dev.onceproof.conformance.lincheck.exactlyonce;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;

/**
 * The bounds of the Strategy 4-6 Lincheck tests (TO BE MEASURED).
 */
final class GatherLincheckOptions {

    static final int THREADS = 3;
    static final int ACTORS = 2;
    static final int SCENARIOS_MC = 10;
    static final int SCENARIOS_STRESS = 10;

    private GatherLincheckOptions() {
    }

    static ModelCheckingOptions modelChecking(Class<?> sequential) {
        return new ModelCheckingOptions()
                .sequentialSpecification(sequential)
                .iterations(SCENARIOS_MC)
                .invocationsPerIteration(20)
                .threads(THREADS)
                .actorsPerThread(ACTORS)
                .actorsBefore(1)
                .actorsAfter(1);
    }

    static StressOptions stress(Class<?> sequential) {
        return new StressOptions()
                .sequentialSpecification(sequential)
                .iterations(SCENARIOS_STRESS)
                .invocationsPerIteration(100)
                .threads(THREADS)
                .actorsPerThread(ACTORS)
                .actorsBefore(1)
                .actorsAfter(1);
    }
}
