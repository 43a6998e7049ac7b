package dev.onceproof.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PowerOfTwoTest {

    @Test
    void ceilIsTheSmallestPowerOfTwoAtLeastTheLifetime() {
        // j = min{k : 2^k >= maxltime} (Figs. 2 and 3)
        assertThat(PowerOfTwo.ceil(1)).isEqualTo(1);
        assertThat(PowerOfTwo.ceil(2)).isEqualTo(2);
        assertThat(PowerOfTwo.ceil(3)).isEqualTo(4);
        assertThat(PowerOfTwo.ceil(4)).isEqualTo(4);
        assertThat(PowerOfTwo.ceil(5)).isEqualTo(8);
        assertThat(PowerOfTwo.ceil(1000)).isEqualTo(1024);
        assertThat(PowerOfTwo.ceil(PowerOfTwo.MAX)).isEqualTo(PowerOfTwo.MAX);
    }

    @Test
    void nonPositiveOrHugeLifetimesAreNotRounded() {
        assertThatThrownBy(() -> PowerOfTwo.ceil(0)).hasMessageContaining("Assumption 5");
        assertThatThrownBy(() -> PowerOfTwo.ceil(PowerOfTwo.MAX + 1)).hasMessageContaining("2^62");
    }

    @Test
    void isRecognisesPowersOfTwoFromOne() {
        assertThat(PowerOfTwo.is(1)).isTrue();
        assertThat(PowerOfTwo.is(64)).isTrue();
        assertThat(PowerOfTwo.is(0)).isFalse();
        assertThat(PowerOfTwo.is(6)).isFalse();
        assertThat(PowerOfTwo.is(Long.MIN_VALUE)).isFalse();
    }
}
