package dev.onceproof.adaptive;

import static dev.onceproof.scmp.Verdict.ACCEPTED;
import static dev.onceproof.scmp.Verdict.DUPLICATE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.adaptive.UnlimitedHorizonEstimator.State;
import org.junit.jupiter.api.Test;

/** Walks every branch of Fig. 2 by hand. */
class UnlimitedHorizonEstimatorTest {

    private final UnlimitedHorizonEstimator est = new UnlimitedHorizonEstimator();

    @Test
    void startsAtOneWithPOne() {
        // Fig. 2 state variables: ltime-est initially 1, p initially 1, numacc = numrej = 0.
        assertThat(est.current()).isEqualTo(1);
        assertThat(est.state()).isEqualTo(new State(1, 1, 0, 0, 0, 0));
    }

    @Test
    void aLifetimeAboveTheEstimateRaisesItToTheNextPowerOfTwo() {
        est.onMessage(5, ACCEPTED, false);
        est.onMessage(3, ACCEPTED, false);
        assertThat(est.beginGarbageCollection()).isEqualTo(8);
        // An increase touches neither numacc, numrej nor p; ltimes is emptied.
        assertThat(est.state()).isEqualTo(new State(8, 1, 2, 0, 5, 0));
    }

    @Test
    void aLifetimeEqualToTheEstimateChangesNothing() {
        raiseTo8();
        est.onMessage(8, ACCEPTED, false);
        assertThat(est.beginGarbageCollection()).isEqualTo(8);
        assertThat(est.state().p()).isEqualTo(1);
    }

    @Test
    void aDecreaseSubtractsPTimesNumrejResetsNumrejAndIncrementsP() {
        raiseTo8();                                // numacc 1
        est.onMessage(9, DUPLICATE, true);         // summary-rejected, and raises to 16
        assertThat(est.beginGarbageCollection()).isEqualTo(16);
        est.onMessage(3, ACCEPTED, false);         // numacc 2 > p * numrej = 1 * 1
        assertThat(est.beginGarbageCollection()).isEqualTo(4);
        assertThat(est.state()).isEqualTo(new State(4, 2, 1, 0, 3, 0));
    }

    @Test
    void noDecreaseUnlessNumaccExceedsPTimesNumrej() {
        raiseTo8();                                // numacc 1
        est.onMessage(2, DUPLICATE, true);         // numrej 1: numacc 1 is not > 1 * 1
        assertThat(est.beginGarbageCollection()).isEqualTo(8);
        assertThat(est.state()).isEqualTo(new State(8, 1, 1, 1, 2, 0));
        est.onMessage(2, ACCEPTED, false);         // numacc 2 > 1: now it may decrease
        assertThat(est.beginGarbageCollection()).isEqualTo(2);
        assertThat(est.state()).isEqualTo(new State(2, 2, 1, 0, 2, 0));
    }

    @Test
    void thePthDecreaseNeedsPTimesAsManyAcceptedAsSummaryRejected() {
        raiseTo8();
        est.onMessage(1, ACCEPTED, false);
        assertThat(est.beginGarbageCollection()).isEqualTo(1);      // first decrease, p becomes 2
        est.onMessage(7, DUPLICATE, true);                            // numrej 1, raises to 8
        assertThat(est.beginGarbageCollection()).isEqualTo(8);
        // numacc is 2 (1 + 1 - 1*0); p * numrej = 2: not enough.
        est.onMessage(3, ACCEPTED, false);                            // numacc 3 > 2
        assertThat(est.state().numacc()).isEqualTo(3);
        assertThat(est.beginGarbageCollection()).isEqualTo(4);
        assertThat(est.state()).isEqualTo(new State(4, 3, 1, 0, 3, 0));
    }

    @Test
    void literalReadingRunsTheDecreaseBranchEvenWhenRoundingKeepsTheEstimate() {
        // Fig. 2 as printed: the guard is "ltime-est > maxltime > 0"; 8 > 5 holds, 2^3 = 8 again,
        // yet p, numacc and numrej are updated as for any decrease.
        UnlimitedHorizonEstimator literal = new UnlimitedHorizonEstimator(UnlimitedHorizonEstimator.Reading.LITERAL);
        raiseTo8(literal);                             // numacc 1
        literal.onMessage(5, ACCEPTED, false);         // numacc 2
        assertThat(literal.beginGarbageCollection()).isEqualTo(8);
        assertThat(literal.state()).isEqualTo(new State(8, 2, 2, 0, 5, 0));
    }

    @Test
    void defaultReadingEndsAnIntervalOnlyWhenTheEstimateDecreases() {
        // Proof of Theorem 6: "At this time [the estimate decreases], numrej and numacc are reset
        // and p is incremented"; a maxltime that rounds to the estimate leaves p, numacc alone.
        assertThat(est.reading()).isEqualTo(UnlimitedHorizonEstimator.Reading.DECREASE);
        raiseTo8();                                // numacc 1
        est.onMessage(5, ACCEPTED, false);         // numacc 2
        assertThat(est.beginGarbageCollection()).isEqualTo(8);
        assertThat(est.state()).isEqualTo(new State(8, 1, 2, 0, 5, 0));
        est.onMessage(3, ACCEPTED, false);         // rounds to 4 < 8: a decrease
        assertThat(est.beginGarbageCollection()).isEqualTo(4);
        assertThat(est.state()).isEqualTo(new State(4, 2, 3, 0, 3, 0));
    }

    @Test
    void anEmptyPeriodNeverLowersTheEstimate() {
        // maxltime = max({} U {0}) = 0 fails "ltime-est > maxltime > 0".
        raiseTo8();
        assertThat(est.beginGarbageCollection()).isEqualTo(8);
        assertThat(est.state().maxltime()).isZero();
    }

    @Test
    void nonPositiveLifetimesFromSkewNeverLowerTheEstimate() {
        raiseTo8();
        est.onMessage(-4, ACCEPTED, false);
        est.onMessage(0, ACCEPTED, false);
        assertThat(est.beginGarbageCollection()).isEqualTo(8);
        assertThat(est.state().numacc()).isEqualTo(3);
    }

    @Test
    void tableRejectedMessagesCountAsNeitherAcceptedNorSummaryRejected() {
        est.onMessage(1, DUPLICATE, false);
        assertThat(est.state().numacc()).isZero();
        assertThat(est.state().numrej()).isZero();
        assertThat(est.state().periodMax()).isEqualTo(1);
    }

    private void raiseTo8() {
        raiseTo8(est);
    }

    private static void raiseTo8(UnlimitedHorizonEstimator e) {
        e.onMessage(6, ACCEPTED, false);
        assertThat(e.beginGarbageCollection()).isEqualTo(8);
    }
}
