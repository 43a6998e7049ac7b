package dev.onceproof.conformance.lincheck;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * Not a test (surefire does not pick it up): how reliably the Lincheck negative controls are caught
 * in the lincheck execution's JVM, and what each costs. Runs each control test method named in
 * {@code onceproof.measure.controls} ({@code Class#method}, comma-separated, classes by their name
 * under {@code dev.onceproof.conformance.lincheck}) {@code onceproof.measure.runs} times (10 unless
 * told) in one JVM; a run counts as caught when the control test passes (each asserts its race was
 * reported, with the failure it names). Prints each run's verdict, wall and process CPU time:
 * {@code mvn -B -ntp -pl conformance -am test-compile surefire:test@lincheck -Dtest='**}{@code /ControlsMeasurement'
 * -Dsurefire.failIfNoSpecifiedTests=false -Donceproof.measure.controls=storage.JournalDefectsLincheckTest#commitReturningBeforeItsWriteIsCaught}
 * (the causal controls: {@code causal.RacyHandOffLincheckTest#handOffOutsideTheOrderingIsCaught,
 * causal.RacyReportLincheckTest#aReportReadBeforeTheFreezeIsCaught}; add {@code -Donceproof.deep=true}
 * for the deep options).
 */
class ControlsMeasurement {

    static final int RUNS = Integer.getInteger("onceproof.measure.runs", 10);

    @Test
    void catchCounts() throws ReflectiveOperationException {
        for (String control : System.getProperty("onceproof.measure.controls", "").split(",")) {
            if (!control.isBlank()) {
                measure(control.strip());
            }
        }
    }

    private static void measure(String control) throws ReflectiveOperationException {
        String[] parts = control.split("#");
        Class<?> test = Class.forName("dev.onceproof.conformance.lincheck." + parts[0]);
        Method method = test.getDeclaredMethod(parts[1]);
        method.setAccessible(true);
        Constructor<?> constructor = test.getDeclaredConstructor();
        constructor.setAccessible(true);
        int caught = 0;
        for (int run = 1; run <= RUNS; run++) {
            long wall = System.nanoTime();
            long cpu = cpu();
            String verdict;
            try {
                method.invoke(constructor.newInstance());
                caught++;
                verdict = "caught";
            } catch (InvocationTargetException e) {
                verdict = "NOT CAUGHT: " + String.valueOf(e.getCause()).lines().findFirst().orElse("");
            }
            System.out.printf("MEASURE %s run %d: %s (wall %.1f s, cpu %.1f s)%n", control, run, verdict,
                    (System.nanoTime() - wall) / 1e9, (cpu() - cpu) / 1e9);
        }
        System.out.printf("MEASURE %s: caught %d of %d%n", control, caught, RUNS);
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
