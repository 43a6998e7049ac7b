package dev.onceproof.conformance.lincheck;

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
                () -> LinChecker.check(RacyScmpFilterLincheckTest.class, LincheckOptions.modelChecking()));
        System.out.println("Racy filter caught as expected:\n" + error.getMessage());
    }
}
