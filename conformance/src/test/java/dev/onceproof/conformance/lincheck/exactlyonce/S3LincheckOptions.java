package dev.onceproof.conformance.lincheck.exactlyonce;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;

/** The bounds of the Strategy 3 Lincheck tests (measured; see the numbers below). */
final class S3LincheckOptions {

    private S3LincheckOptions() {
    }

    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .sequentialSpecification(SequentialS3.class)
                .iterations(5)
                .invocationsPerIteration(20)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1);
    }

    static StressOptions stress() {
        return new StressOptions()
                .sequentialSpecification(SequentialS3.class)
                .iterations(5)
                .invocationsPerIteration(100)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1);
    }
}
