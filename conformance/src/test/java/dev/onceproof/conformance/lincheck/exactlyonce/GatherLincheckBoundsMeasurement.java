package dev.onceproof.conformance.lincheck.exactlyonce;

import org.jetbrains.kotlinx.lincheck.Options;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Not a test (surefire does not pick it up): the measurement behind {@link GatherLincheckOptions},
 * as {@link S3LincheckBoundsMeasurement} does for Strategy 3. Run it alone:
 * {@code mvn -o -q -pl conformance -am test -Dtest=GatherLincheckBoundsMeasurement -Dsurefire.failIfNoSpecifiedTests=false}
 */
class GatherLincheckBoundsMeasurement {

    static final int MAX_SCENARIOS = Integer.getInteger("onceproof.measure.scenarios", 10);

    @Test
    void grid() {
        System.out.println("| control | mode | threads x actors (before, after) | invocations | caught at scenario | kind | time ms |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
        for (int threads = 2; threads <= 3; threads++) {
            for (int actors = 1; actors <= 2; actors++) {
                row("model checking", new ModelCheckingOptions(), 20, threads, actors);
                row("stress", new StressOptions(), 100, threads, actors);
            }
        }
    }

    /** The follow-up: more scenarios where the first grid found nothing in 10. */
    @Test
    void extended() {
        row("stress", new StressOptions(), 100, 3, 2, 60);
        row("model checking", new ModelCheckingOptions(), 20, 2, 2, 30);
    }

    /** After deliver's results stopped naming the note: only the validation can catch it now. */
    @Test
    void outcomeOnly() {
        row("model checking", new ModelCheckingOptions(), 20, 2, 2, 40);
        row("model checking", new ModelCheckingOptions(), 20, 3, 2, 40);
    }

    private static void row(String mode, Options<?, ?> options, int invocations, int threads, int actors) {
        row(mode, options, invocations, threads, actors, MAX_SCENARIOS);
    }

    private static void row(String mode, Options<?, ?> options, int invocations, int threads, int actors,
            int maxScenarios) {
        if (options instanceof ModelCheckingOptions mc) {
            mc.invocationsPerIteration(invocations);
        } else {
            ((StressOptions) options).invocationsPerIteration(invocations);
        }
        options.sequentialSpecification(SequentialGather4.class).iterations(maxScenarios).threads(threads)
                .actorsPerThread(actors).actorsBefore(1).actorsAfter(1)
                .invocationTimeout$lincheck(GatherLincheckOptions.INVOCATION_TIMEOUT_MS);
        LincheckControls.Measured m = LincheckControls.measure(AttemptLoggedAfterCallLincheckTest.class, options);
        System.out.printf("| AttemptLoggedAfterCall | %s | %d x %d (1, 1) | %d | %s | %s | %d |%n", mode, threads, actors,
                invocations, m.caught() ? String.valueOf(m.scenario()) : "not in " + maxScenarios, m.kind(),
                m.millis());
    }
}
