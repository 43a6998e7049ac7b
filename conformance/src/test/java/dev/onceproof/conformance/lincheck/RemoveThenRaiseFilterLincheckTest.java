package dev.onceproof.conformance.lincheck;

import org.junit.jupiter.api.Test;

/**
 * Garbage collection that removes the entry before raising upper: the ordering ConcurrentScmpFilter
 * avoids by raising upper inside the per-key section.
 */
public class RemoveThenRaiseFilterLincheckTest extends RacyFilterLincheckBase {

    @Override
    RacyScmpFilter.Race race() {
        return RacyScmpFilter.Race.REMOVE_THEN_RAISE;
    }

    @Test
    void removeThenRaiseCollectionIsCaught() {
        assertCaught(RemoveThenRaiseFilterLincheckTest.class, 8);
    }
}
