package dev.onceproof.conformance.lincheck;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;

/**
 * One set of model-checking bounds for both tests. Small: the first check in a JVM pays Lincheck's
 * class transformation (several seconds), then each invocation (one interleaving of one scenario)
 * costs milliseconds; 8 scenarios x 25 interleavings of 2 threads x 3 operations, with 1 operation
 * before and 2 after, run in seconds and catch the racy filter within the first scenarios.
 */
final class LincheckOptions {

    private LincheckOptions() {
    }

    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .sequentialSpecification(SequentialScmp.class)
                .iterations(8)
                .invocationsPerIteration(25)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(2);
    }

    /**
     * The RPC server, against {@link SequentialRpc}: more scenarios and interleavings than the
     * filter's, since six operations make a race-revealing scenario rarer (about 10 s).
     */
    static ModelCheckingOptions rpcModelChecking() {
        return modelChecking().sequentialSpecification(SequentialRpc.class).iterations(30).invocationsPerIteration(50);
    }
}
