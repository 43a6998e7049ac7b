package dev.onceproof.bench.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.exactlyonce.Strategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The fsync budget: the same records per note whatever is in flight; notes in flight share commits. */
class RecordCensusTest {

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"S3", "S4"})
    void notesInFlightShareCommitsNotRecords(Strategy s) {
        RecordCensus.Budget one = RecordCensus.of(s, 3, 1, 100, 256, 1000);
        RecordCensus.Budget many = RecordCensus.of(s, 3, 20, 100, 256, 1000);

        assertThat(one.notes()).isEqualTo(1000);
        // The replica and the round's commit at each of 3 servers, and A's own steps: 9 and a little.
        assertThat(one.records()).isBetween(9.0, 9.5);
        assertThat(many.records()).isEqualTo(one.records());
        assertThat(one.commits()).isGreaterThan(7);
        assertThat(many.commits()).isLessThan(one.commits() / 3);
        assertThat(many.recordsPerNote()).containsKeys("A: Enter+" + (s == Strategy.S3 ? "SetNumbers+Origin"
                : "OpenRound"), "B: Enter+" + (s == Strategy.S3 ? "SetNumbers+Origin" : "OpenRound"));
    }
}
