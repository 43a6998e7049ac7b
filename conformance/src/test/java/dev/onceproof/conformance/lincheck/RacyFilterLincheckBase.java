package dev.onceproof.conformance.lincheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import java.util.Arrays;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;

/**
 * The negative controls: the operations and checks of {@link ConcurrentScmpFilterLincheckTest} on a
 * {@link RacyScmpFilter}; Lincheck must report a failure, or the suite could not catch that race.
 */
public abstract class RacyFilterLincheckBase extends FilterLincheckBase {

    private final RacyScmpFilter filter = new RacyScmpFilter(LincheckScenario.CONFIG, clock, race());

    abstract RacyScmpFilter.Race race();

    @Override
    Verdict judge(ConnId conn, Timestamp ts) {
        return filter.receive(conn, ts);
    }

    @Override
    boolean collect(ConnId conn) {
        return filter.collectGarbage(conn);
    }

    /** Runs Lincheck on the concrete test class and returns the start of its report. */
    static String assertCaught(Class<? extends RacyFilterLincheckBase> testClass, int iterations) {
        return assertCaught(testClass, LincheckOptions.modelChecking(), iterations);
    }

    /** The same for any test class and sequential specification (the RPC server's controls). */
    static String assertCaught(Class<?> testClass, ModelCheckingOptions options, int iterations) {
        // Few scenarios: a race shows up early, and each failure costs a minimization (re-runs of
        // smaller scenarios) and a trace.
        LincheckAssertionError error = assertThrows(LincheckAssertionError.class,
                () -> LinChecker.check(testClass, options.iterations(iterations)));
        // Lincheck reports the broken spec invariant (validation) or a non-linearizable history,
        // whichever interleaving it meets first; both mean the race was seen.
        assertThat(error.getMessage()).containsAnyOf("accepted twice (NoDuplicateAccepted)",
                "executed twice", "Invalid execution results");
        String[] lines = error.getMessage().split("\n");
        String head = String.join("\n", Arrays.copyOf(lines, Math.min(lines.length, 24)));
        System.out.println(testClass.getSimpleName() + ": race caught as expected:\n" + head);
        return head;
    }
}
