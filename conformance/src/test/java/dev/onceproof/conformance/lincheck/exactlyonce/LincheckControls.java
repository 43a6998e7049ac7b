package dev.onceproof.conformance.lincheck.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.jetbrains.kotlinx.lincheck.Options;
import org.jetbrains.kotlinx.lincheck.util.LoggingLevel;
import org.junit.jupiter.api.function.Executable;

/**
 * What the exactly-once Lincheck negative controls share: the assertion that a racy variant is
 * caught, and the bound measurement (which scenario first catches it).
 */
final class LincheckControls {

    private static final Pattern ITERATION = Pattern.compile("= Iteration (\\d+) / (\\d+) =");

    private LincheckControls() {
    }

    /** The control must be reported, as a duplicate processing or as a non-linearizable history. */
    static void assertCaught(String name, Executable check) {
        LincheckAssertionError error = assertThrows(LincheckAssertionError.class, check);
        assertThat(error.getMessage()).containsAnyOf("processed twice (NoDuplicateDelivery)",
                "Invalid execution results", "NoReattempt broken");
        String[] lines = error.getMessage().split("\n");
        System.out.println(name + ": race caught as expected:\n"
                + String.join("\n", Arrays.copyOf(lines, Math.min(lines.length, 30))));
    }

    /**
     * One measurement: runs Lincheck with {@code options} (logging each scenario) and reports
     * whether it failed, at which scenario (1-based; Lincheck's scenario seeds are fixed, so the
     * same bounds give the same scenarios on every run) and how long it took.
     */
    static Measured measure(Class<?> test, Options<?, ?> options) {
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        long start = System.nanoTime();
        boolean caught = false;
        String kind = "-";
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            LinChecker.check(test, options.logLevel(LoggingLevel.INFO).minimizeFailedScenario(false));
        } catch (LincheckAssertionError e) {
            caught = true;
            kind = e.getMessage().contains("twice") ? "duplicate"
                    : e.getMessage().contains("NoReattempt") ? "reattempt"
                    : e.getMessage().contains("Invalid execution results") ? "non-linearizable" : "other";
        } finally {
            System.setOut(saved);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        int last = 0;
        Matcher m = ITERATION.matcher(captured.toString(StandardCharsets.UTF_8));
        while (m.find()) {
            last = Integer.parseInt(m.group(1));
        }
        return new Measured(caught, caught ? last : 0, kind, millis);
    }

    record Measured(boolean caught, int scenario, String kind, long millis) {
    }
}
