package dev.onceproof.conformance.lincheck;

import org.jetbrains.kotlinx.lincheck.annotations.Operation;

/** The filter in the monotonic scheme (2.2), whose own mutator is FinishRecovery. */
public class MonotonicFilterLincheck extends FilterLincheckBase {

    /**
     * The races of the monotonic scheme's argument, from {@link LincheckScenario}'s world (recovering
     * after c1@2 and c2@3 were accepted, clock 3): FinishRecovery against a pre-crash duplicate; two
     * FinishRecovery calls (enabled once); collection against a late duplicate once running again;
     * a restart against receives and FinishRecovery.
     */
    static final String[][] SCENARIOS = {
        {"", "finishRecovery()", "receive(1, 2)", "receive(2, 3)"},
        {"", "finishRecovery()", "finishRecovery()", "receive(1, 2)"},
        {"finishRecovery(); receive(1, 4); tick(); tick()", "collectGarbage(1)", "receive(1, 4)", ""},
        {"", "restart()", "receive(1, 2); finishRecovery()", "receive(1, 2)"},
    };

    public MonotonicFilterLincheck() {
        this("NONE");
    }

    MonotonicFilterLincheck(String reordering) {
        super(LincheckScenario.MONOTONIC, reordering);
    }

    /** Spec FinishRecovery; false where the step is not enabled (the core and the filter refuse it). */
    @Operation
    public boolean finishRecovery() {
        return world.step(() -> {
            try {
                filter.finishRecovery();
                return true;
            } catch (IllegalStateException notEnabled) {
                return false;
            }
        });
    }
}
