package dev.onceproof.conformance.lincheck;

import org.jetbrains.kotlinx.lincheck.annotations.Operation;

/** The filter in the resilient scheme (Fig. 2-2), whose own mutator is WriteLatest. */
public class ResilientFilterLincheck extends FilterLincheckBase {

    /**
     * The races of the resilient scheme's argument, from {@link LincheckScenario}'s world (c1@1 and
     * c2@2 accepted, c1 collectable, latest 3): collection, one entry or the full pass, against a late
     * duplicate; WriteLatest against a receive just above the old latest; two copies of one message;
     * a restart against receives and WriteLatest.
     */
    static final String[][] SCENARIOS = {
        {"", "collectGarbage(1)", "receive(1, 1)", ""},
        {"", "collectGarbage()", "receive(1, 1)", "receive(1, 1)"},
        {"tick()", "writeLatest()", "receive(2, 4)", ""},
        {"", "receive(1, 3)", "receive(1, 3)", ""},
        {"", "restart()", "receive(2, 3); writeLatest()", "receive(2, 3)"},
    };

    public ResilientFilterLincheck() {
        this("NONE");
    }

    ResilientFilterLincheck(String reordering) {
        super(LincheckScenario.RESILIENT, reordering);
    }

    /** Spec WriteLatest: latest after the step. */
    @Operation
    public long writeLatest() {
        return world.stillClockStep(() -> filter.writeLatest());
    }
}
