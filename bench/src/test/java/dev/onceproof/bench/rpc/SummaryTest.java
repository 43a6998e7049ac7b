package dev.onceproof.bench.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {

    @Test
    void medianAndQuartilesOfOddAndEvenCounts() {
        Summary odd = Summary.of(List.of(5.0, 1.0, 3.0, 9.0, 7.0));
        assertThat(odd.median()).isEqualTo(5.0);
        assertThat(odd.q1()).isEqualTo(3.0);
        assertThat(odd.q3()).isEqualTo(7.0);
        assertThat(odd.min()).isEqualTo(1.0);
        assertThat(odd.max()).isEqualTo(9.0);
        assertThat(odd.p10()).isCloseTo(1.8, within(1e-9)); // rank 0.4 between 1 and 3
        assertThat(odd.samples()).containsExactly(5.0, 1.0, 3.0, 9.0, 7.0);

        Summary even = Summary.of(List.of(4.0, 1.0, 2.0, 3.0));
        assertThat(even.median()).isCloseTo(2.5, within(1e-9));
        assertThat(even.q1()).isCloseTo(1.75, within(1e-9));
    }
}
