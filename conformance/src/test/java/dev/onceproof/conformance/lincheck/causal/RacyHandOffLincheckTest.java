package dev.onceproof.conformance.lincheck.causal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.Event;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * The negative control: the real {@link ConcurrentCausalNode} with its ordering safeguard removed
 * through its seams: each thread hands the events its own step delivered to the application after
 * releasing the lock, instead of queueing them in core order. The core still decides correctly, so
 * every result is linearizable; only the application's log shows the race (B handed over before A).
 * Lincheck must report it, or the suite could not catch that bug.
 */
public class RacyHandOffLincheckTest extends CausalLincheckBase {

    /** Hand-off outside the ordering: what a plausible "don't call the app under the lock" change does. */
    static final class RacyHandOff extends ConcurrentCausalNode {
        RacyHandOff(CausalNode core, CausalWorld.Application app) {
            super(core, app);
        }

        @Override
        protected void publish(List<Event> delivered) {
        }

        @Override
        protected void handOff(List<Event> delivered) {
            for (Event e : delivered) {
                application.accept(e);
            }
        }
    }

    @Override
    ConcurrentCausalNode build(CausalNode core, CausalWorld.Application app) {
        return new RacyHandOff(core, app);
    }

    @Test
    void handOffOutsideTheOrderingIsCaught() {
        LincheckAssertionError error = assertThrows(LincheckAssertionError.class,
                () -> LinChecker.check(RacyHandOffLincheckTest.class,
                        CausalLincheckOptions.control(RacyHandOffLincheckTest.class, SequentialCausal.class,
                                CausalLincheckOptions.SCENARIOS)));
        assertThat(error.getMessage()).contains("CausalOrder");
        String[] lines = error.getMessage().split("\n");
        System.out.println("RacyHandOffLincheckTest: race caught as expected:\n"
                + String.join("\n", java.util.Arrays.copyOf(lines, Math.min(lines.length, 30))));
    }
}
