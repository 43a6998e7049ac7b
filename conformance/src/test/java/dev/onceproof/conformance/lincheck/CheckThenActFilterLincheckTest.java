package dev.onceproof.conformance.lincheck;

import org.junit.jupiter.api.Test;

/** Receive as get-then-put: two copies of one message both find no entry and are both accepted. */
public class CheckThenActFilterLincheckTest extends RacyFilterLincheckBase {

    @Override
    RacyScmpFilter.Race race() {
        return RacyScmpFilter.Race.CHECK_THEN_ACT;
    }

    @Test
    void checkThenActReceiveIsCaught() {
        assertCaught(CheckThenActFilterLincheckTest.class, 8);
    }
}
