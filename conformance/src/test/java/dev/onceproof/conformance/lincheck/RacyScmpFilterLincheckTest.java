package dev.onceproof.conformance.lincheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Test;

/**
 * The negative control: the same operations and checks as {@link ConcurrentScmpFilterLincheckTest}
 * on {@link RacyScmpFilter}; Lincheck must report a failure, or the suite could not catch a race.
 */
@Param(name = "conn", gen = IntGen.class, conf = "1:2")
@Param(name = "ts", gen = IntGen.class, conf = "1:4")
public class RacyScmpFilterLincheckTest {

    private final ManualInstantSource clock = new ManualInstantSource(LincheckScenario.START_CLOCK);
    private final RacyScmpFilter filter = new RacyScmpFilter(LincheckScenario.CONFIG, clock);
    private final AcceptanceLog log = new AcceptanceLog();

    @Operation
    public Verdict receive(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return log.record(conn, ts, filter.receive(LincheckScenario.conn(conn), Timestamp.of(ts)));
    }

    @Operation
    public boolean collectGarbage(@Param(name = "conn") int conn) {
        return filter.collectGarbage(LincheckScenario.conn(conn));
    }

    @Operation
    public void tick() {
        clock.advance(1);
    }

    @Validate
    public void noMessageAcceptedTwice() {
        log.validate();
    }

    @Test
    void racyFilterIsCaught() {
        LincheckAssertionError error = assertThrows(LincheckAssertionError.class,
                // Fewer scenarios than the positive test: a race shows up in the first ones, and
                // each failure costs a minimization (re-runs of smaller scenarios) and a trace.
                () -> LinChecker.check(RacyScmpFilterLincheckTest.class, LincheckOptions.modelChecking().iterations(4)));
        // Lincheck reports the broken spec invariant (validation) or a non-linearizable history,
        // whichever interleaving it meets first; both mean the race was seen.
        assertThat(error.getMessage()).containsAnyOf("accepted twice (NoDuplicateAccepted)",
                "Invalid execution results");
        String[] lines = error.getMessage().split("\n");
        System.out.println("Racy filter caught as expected:\n"
                + String.join("\n", java.util.Arrays.copyOf(lines, Math.min(lines.length, 24))));
    }
}
