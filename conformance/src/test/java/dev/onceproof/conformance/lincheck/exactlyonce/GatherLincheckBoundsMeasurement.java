package dev.onceproof.conformance.lincheck.exactlyonce;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Options;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Not a test (surefire does not pick it up): the measurement behind {@link GatherLincheckOptions},
 * as {@link S3LincheckBoundsMeasurement} does for Strategy 3. For each racy control it prints
 * whether Lincheck catches it, at which scenario, and the time: with the strategy's targeted
 * scenario alone (model checking at several interleaving counts, stress at several run counts),
 * and with random scenarios alone. Run it alone (one method with {@code -Dtest=...#targeted}):
 * {@code mvn -o -q -pl conformance -am test -Dtest=GatherLincheckBoundsMeasurement -Dsurefire.failIfNoSpecifiedTests=false}
 * Which controls: {@code -Donceproof.measure.controls=ReplyAtOnce,...} (simple names without
 * "LincheckTest"; default all four). The table in {@link GatherLincheckOptions} came from
 * {@code -Donceproof.measure.interleavings=20,50,60,70,80,90,100 -Donceproof.measure.runs=100,1000
 * -Donceproof.measure.threads=3} (both methods, 13 minutes on the loaded machine).
 */
class GatherLincheckBoundsMeasurement {

    static final int RANDOM_SCENARIOS = Integer.getInteger("onceproof.measure.scenarios", 10);

    /** Each control and its sequential specification. */
    static final Class<?>[][] CONTROLS = {
        {AttemptLoggedAfterCallLincheckTest.class, SequentialGather4.class},
        {ReplyAtOnceLincheckTest.class, SequentialGather4.class},
        {PeriodicSyncAtOnceLincheckTest.class, SequentialGather5.class},
        {PushSyncAtOnceLincheckTest.class, SequentialGather6.class},
    };

    static List<Class<?>[]> controls() {
        String only = System.getProperty("onceproof.measure.controls", "");
        List<Class<?>[]> out = new ArrayList<>();
        for (Class<?>[] c : CONTROLS) {
            if (only.isEmpty() || Arrays.asList(only.split(",")).contains(
                    c[0].getSimpleName().replace("LincheckTest", ""))) {
                out.add(c);
            }
        }
        return out;
    }

    static int[] ints(String property, String dflt) {
        return Arrays.stream(System.getProperty(property, dflt).split(",")).mapToInt(Integer::parseInt).toArray();
    }

    @Test
    void targeted() {
        header();
        for (Class<?>[] c : controls()) {
            for (int inv : ints("onceproof.measure.interleavings", "20,50,100")) {
                row(c, "model checking", new ModelCheckingOptions().invocationsPerIteration(inv)
                        .addGuarantee(GatherScenarios.coresAtomic()), inv, true, 0, 2, 2);
            }
            for (int runs : ints("onceproof.measure.runs", "100,1000")) {
                row(c, "stress", new StressOptions().invocationsPerIteration(runs), runs, true, 0, 2, 2);
            }
        }
    }

    @Test
    void random() {
        header();
        for (Class<?>[] c : controls()) {
            for (int threads : ints("onceproof.measure.threads", "2,3")) {
                row(c, "model checking", new ModelCheckingOptions().invocationsPerIteration(100)
                        .addGuarantee(GatherScenarios.coresAtomic()), 100, false, RANDOM_SCENARIOS, threads, 2);
                row(c, "stress", new StressOptions().invocationsPerIteration(100), 100, false, RANDOM_SCENARIOS,
                        threads, 2);
            }
        }
    }

    private static void header() {
        System.out.println("| control | mode | scenarios | invocations | caught at scenario | kind | time ms |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
    }

    private static void row(Class<?>[] control, String mode, Options<?, ?> options, int invocations, boolean targeted,
            int random, int threads, int actors) {
        options.sequentialSpecification(control[1]).iterations(random).threads(threads).actorsPerThread(actors)
                .actorsBefore(1).actorsAfter(1).invocationTimeout$lincheck(GatherLincheckOptions.INVOCATION_TIMEOUT_MS);
        if (targeted) {
            for (String sc : GatherLincheckOptions.scenarios(control[1])) {
                options.addCustomScenario(GatherScenarios.parse(control[0], sc));
            }
        }
        LincheckControls.Measured m = LincheckControls.measure(control[0], options);
        String scenarios = targeted ? "targeted only" : random + " random " + threads + "x" + actors + " (1, 1)";
        System.out.printf("| %s | %s | %s | %d | %s | %s | %d |%n", control[0].getSimpleName().replace("LincheckTest", ""),
                mode, scenarios, invocations, m.caught() ? String.valueOf(m.scenario()) : "not caught", m.kind(),
                m.millis());
    }
}
