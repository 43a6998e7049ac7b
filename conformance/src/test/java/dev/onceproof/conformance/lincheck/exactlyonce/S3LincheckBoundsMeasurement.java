package dev.onceproof.conformance.lincheck.exactlyonce;

import org.jetbrains.kotlinx.lincheck.Options;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Not a test (surefire does not pick it up): the measurement behind {@link S3LincheckOptions}.
 * For each racy control and each bound it prints whether Lincheck catches it, at which scenario,
 * and the time. Run it alone:
 * {@code mvn -o -q -pl conformance -am test -Dtest=S3LincheckBoundsMeasurement -Dsurefire.failIfNoSpecifiedTests=false}
 * (two threads only: every operation belongs to one of two non-parallel groups, session and synch).
 */
class S3LincheckBoundsMeasurement {

    static final int MAX_SCENARIOS = Integer.getInteger("onceproof.measure.scenarios", 30);

    @Test
    void grid() {
        System.out.println("| control | mode | threads x actors (before, after) | invocations | caught at scenario | kind | time ms |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
        for (Class<?> control : new Class<?>[] {HandoffAfterUnlockLincheckTest.class, PrintedSnapshotLincheckTest.class}) {
            for (int actors = 1; actors <= 3; actors++) {
                for (int before = 0; before <= 1; before++) {
                    row(control, "model checking", new ModelCheckingOptions(), 20, actors, before);
                    row(control, "stress", new StressOptions(), 100, actors, before);
                }
            }
        }
    }

    private static void row(Class<?> control, String mode, Options<?, ?> options, int invocations, int actors,
            int before) {
        if (options instanceof ModelCheckingOptions mc) {
            mc.invocationsPerIteration(invocations);
        } else {
            ((StressOptions) options).invocationsPerIteration(invocations);
        }
        options.sequentialSpecification(SequentialS3.class).iterations(MAX_SCENARIOS).threads(2)
                .actorsPerThread(actors).actorsBefore(before).actorsAfter(1);
        LincheckControls.Measured m = LincheckControls.measure(control, options);
        System.out.printf("| %s | %s | 2 x %d (%d, 1) | %d | %s | %s | %d |%n", control.getSimpleName(), mode, actors,
                before, invocations, m.caught() ? String.valueOf(m.scenario()) : "not in " + MAX_SCENARIOS, m.kind(),
                m.millis());
    }
}
