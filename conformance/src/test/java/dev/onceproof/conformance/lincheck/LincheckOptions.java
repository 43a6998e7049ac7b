package dev.onceproof.conformance.lincheck;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;

/** One set of model-checking bounds for both tests, small enough to run in seconds. */
final class LincheckOptions {

    private LincheckOptions() {
    }

    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .sequentialSpecification(SequentialScmp.class)
                .iterations(10)
                .invocationsPerIteration(30)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(2);
    }
}
