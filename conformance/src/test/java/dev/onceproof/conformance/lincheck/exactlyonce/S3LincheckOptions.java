package dev.onceproof.conformance.lincheck.exactlyonce;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;

/**
 * The bounds of the Strategy 3 Lincheck tests: 2 threads x 3 operations, 1 before and 1 after,
 * 5 scenarios (model checking: 20 interleavings each; stress: 100 runs each).
 *
 * <p>Measured on the shared 2-core machine under load (load average 25-35, other helpers' builds
 * running), never idle: the corrected server took 118 s (model checking) and 30.5 s (stress); the
 * printed control 258 s (model checking, most of it Lincheck minimizing the failing scenario) and
 * 115 s (stress), caught in both modes within those 5 scenarios. An earlier run with 10 scenarios
 * x 30 interleavings (stress 10 x 200) took 393 s for model checking alone under the same load.
 * Without minimizing the failing scenario (the control needs only the verdict) the printed control
 * took 37.7 s for both modes together (stress 1.7 s), under load average about 20.
 * The idle time and the smallest catching bound were not measured; see the eo-core report.
 */
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
