package dev.onceproof.adaptive;

import static dev.onceproof.scmp.Verdict.ACCEPTED;
import static dev.onceproof.scmp.Verdict.DUPLICATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Walks every branch of Fig. 3 by hand. */
class LimitedHorizonEstimatorTest {

    @Test
    void parametersOutsideThePapersConstraintsAreRefused() {
        assertThatThrownBy(() -> new LimitedHorizonEstimator(4, -1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("H -1 is negative");
        assertThatThrownBy(() -> new LimitedHorizonEstimator(3, 3, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("S > H");
        assertThatThrownBy(() -> new LimitedHorizonEstimator(4, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("p 0 is below 1");
        // delta = 1/5 < H/(S-H) = 2/8 violates Assumption 3; p = 4 gives exactly 2/8 and is allowed.
        assertThatThrownBy(() -> new LimitedHorizonEstimator(10, 2, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Assumption 3")
                .hasMessageContaining("2/8");
        assertThat(new LimitedHorizonEstimator(10, 2, 4).p()).isEqualTo(4);
        assertThatThrownBy(() -> new LimitedHorizonEstimator(10, 1, Long.MAX_VALUE))
                .hasMessageContaining("Assumption 3");
        // H = 0: any p >= 1 (delta >= 0).
        assertThat(new LimitedHorizonEstimator(1, 0, 1_000_000).current()).isEqualTo(1);
    }

    @Test
    void collectionIsDueExactlyAfterEverySthMessage() {
        LimitedHorizonEstimator est = new LimitedHorizonEstimator(3, 0, 1);
        assertThat(est.messagesUntilCollection()).isEqualTo(3);
        est.onMessage(1, ACCEPTED, false);
        est.onMessage(1, ACCEPTED, false);
        assertThat(est.garbageCollectionDue()).isFalse();
        assertThatThrownBy(est::beginGarbageCollection).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds 2 lifetimes, not S = 3");
        est.onMessage(1, ACCEPTED, false);
        assertThat(est.garbageCollectionDue()).isTrue();
        assertThatThrownBy(() -> est.onMessage(1, ACCEPTED, false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("exactly S entries");
        est.beginGarbageCollection();
        assertThat(est.messagesUntilCollection()).isEqualTo(3);
        assertThat(est.state().ltimes()).isEmpty();
    }

    @Test
    void theHPlusFirstLargestLifetimeIgnoresHSpikes() {
        LimitedHorizonEstimator est = new LimitedHorizonEstimator(5, 1, 4);
        for (long lifetime : new long[] {1, 100, 3, 2, 1}) {
            est.onMessage(lifetime, ACCEPTED, false);
        }
        // Sorted descending 100, 3, 2, 1, 1: the 2nd largest is 3, so 4, not 128.
        assertThat(est.beginGarbageCollection()).isEqualTo(4);
        assertThat(est.state().maxltime()).isEqualTo(3);
    }

    @Test
    void aDecreaseSubtractsPTimesNumrejPlusOneAndKeepsP() {
        LimitedHorizonEstimator est = new LimitedHorizonEstimator(2, 0, 2);
        est.onMessage(9, DUPLICATE, true);   // numrej 1
        est.onMessage(9, ACCEPTED, false);   // numacc 1
        assertThat(est.beginGarbageCollection()).isEqualTo(16);
        est.onMessage(3, ACCEPTED, false);
        est.onMessage(3, ACCEPTED, false);   // numacc 3 > p * numrej = 2
        assertThat(est.beginGarbageCollection()).isEqualTo(4);
        var s = est.state();
        assertThat(s.numacc()).isZero();     // 3 - 2 * 1 - 1
        assertThat(s.numrej()).isZero();
        assertThat(s.p()).isEqualTo(2);      // p is fixed in Fig. 3
    }

    @Test
    void noDecreaseUnlessNumaccExceedsPTimesNumrej() {
        LimitedHorizonEstimator est = new LimitedHorizonEstimator(2, 0, 2);
        est.onMessage(9, DUPLICATE, true);
        est.onMessage(9, ACCEPTED, false);
        assertThat(est.beginGarbageCollection()).isEqualTo(16);
        est.onMessage(3, ACCEPTED, false);   // numacc 2 = p * numrej: not strictly greater
        est.onMessage(3, DUPLICATE, false);  // table-rejected: counts nowhere
        assertThat(est.beginGarbageCollection()).isEqualTo(16);
        assertThat(est.state().numacc()).isEqualTo(2);
        assertThat(est.state().numrej()).isEqualTo(1);
    }

    @Test
    void aNonPositiveMaxltimeNeverLowersTheEstimate() {
        LimitedHorizonEstimator est = new LimitedHorizonEstimator(2, 1, 1);
        est.onMessage(8, ACCEPTED, false);
        est.onMessage(8, ACCEPTED, false);
        assertThat(est.beginGarbageCollection()).isEqualTo(8);
        est.onMessage(50, ACCEPTED, false);
        est.onMessage(-3, ACCEPTED, false);  // 2nd largest is -3: fails "maxltime > 0"
        assertThat(est.beginGarbageCollection()).isEqualTo(8);
    }

    @Test
    void aLifetimeEqualToTheEstimateChangesNothing() {
        LimitedHorizonEstimator est = new LimitedHorizonEstimator(1, 0, 1);
        est.onMessage(1, ACCEPTED, false);
        assertThat(est.beginGarbageCollection()).isEqualTo(1);
        assertThat(est.state().numacc()).isEqualTo(1);
    }
}
