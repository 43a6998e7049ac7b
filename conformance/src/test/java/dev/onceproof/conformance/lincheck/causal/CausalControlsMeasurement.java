package dev.onceproof.conformance.lincheck.causal;

import java.lang.management.ManagementFactory;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Test;

/**
 * Not a test (surefire does not pick it up): how reliably the causal racy controls are caught at
 * the build's options ({@link CausalLincheckOptions#control}), and what each check costs. Runs each
 * control {@code onceproof.measure.runs} times (10 unless told) in one JVM and prints, per run,
 * whether it was caught with the failure the control asserts, and the wall and process CPU time:
 * {@code mvn -B -ntp -pl conformance -am test-compile surefire:test@lincheck -Dtest='**}{@code /CausalControlsMeasurement'
 * -Dsurefire.failIfNoSpecifiedTests=false} (add {@code -Donceproof.deep=true} for the deep options).
 */
class CausalControlsMeasurement {

    static final int RUNS = Integer.getInteger("onceproof.measure.runs", 10);

    @Test
    void catchCounts() {
        measure("RacyHandOffLincheckTest", RacyHandOffLincheckTest.class, "CausalOrder",
                CausalLincheckOptions.control(RacyHandOffLincheckTest.class, SequentialCausal.class,
                        CausalLincheckOptions.SCENARIOS));
        measure("RacyReportLincheckTest", RacyReportLincheckTest.class, "REPORT []",
                CausalLincheckOptions.control(RacyReportLincheckTest.class, SequentialMembership.class,
                        CausalLincheckOptions.MEMBERSHIP_SCENARIOS));
    }

    private static void measure(String name, Class<?> control, String expected, ModelCheckingOptions options) {
        int caught = 0;
        for (int run = 1; run <= RUNS; run++) {
            long wall = System.nanoTime();
            long cpu = cpu();
            String verdict;
            try {
                LinChecker.check(control, options);
                verdict = "MISSED";
            } catch (LincheckAssertionError e) {
                boolean right = String.valueOf(e.getMessage()).contains(expected);
                caught += right ? 1 : 0;
                verdict = right ? "caught" : "failed otherwise: " + e.getMessage().lines().findFirst().orElse("");
            }
            System.out.printf("MEASURE %s run %d: %s (wall %.1f s, cpu %.1f s)%n", name, run, verdict,
                    (System.nanoTime() - wall) / 1e9, (cpu() - cpu) / 1e9);
        }
        System.out.printf("MEASURE %s: caught %d of %d%n", name, caught, RUNS);
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
