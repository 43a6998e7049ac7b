package dev.onceproof.bench.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.exactlyonce.Strategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** The per-note loop runs the protocol it times, and says so when it cannot. */
class NoteCostLoopTest {

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"S1", "S3", "S4"})
    void everyNoteIsProcessedOnceAndEachBlockIsMeasured(Strategy s) {
        NoteCostLoop.Result r = new NoteCostLoop(s, 100, 256).run(new long[] {100, 300}, 60);

        assertThat(r.stopped()).isEmpty();
        assertThat(r.notes()).isEqualTo(300);
        assertThat(r.blocks()).extracting(NoteCostLoop.Block::upTo).containsExactly(100L, 300L);
        assertThat(r.blocks()).allSatisfy(b -> assertThat(b.medianMicros()).isPositive());
        assertThat(r.blocks()).allSatisfy(b -> assertThat(b.durableBytesA()).isPositive());
        assertThat(r.blocks()).allSatisfy(b -> assertThat(b.durableBytesB()).isPositive());
    }

    /**
     * Strategy 1 keeps a prefix per stream (issue 19 item 1): its durable state does not grow with the
     * notes. (With every removed id kept it grew about 24 bytes per note.)
     */
    @Test
    void strategyOnesDurableStateStaysFlat() {
        NoteCostLoop.Result r = new NoteCostLoop(Strategy.S1, 100, 256).run(new long[] {100, 400}, 60);

        assertThat(r.blocks().get(1).durableBytesA()).isLessThanOrEqualTo(r.blocks().get(0).durableBytesA() + 8);
        assertThat(r.blocks().get(1).durableBytesB()).isLessThanOrEqualTo(r.blocks().get(0).durableBytesB() + 8);
    }

    /** The control of the loop's own check: an R too small to wait for the confirming sync refuses notes. */
    @Test
    void aLoopWhoseClientRefusesNotesFailsInsteadOfTimingIt() {
        assertThatThrownBy(() -> new NoteCostLoop(Strategy.S3, 100, 20).run(new long[] {40}, 60))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refused")
                .hasMessageContaining("not running the protocol");
    }

    @Test
    void aRunCutShortIsNeverAPass() {
        NoteCostCommand command = new NoteCostCommand();
        command.sizes = new long[] {100, 1000};
        NoteCostLoop.Result r = new NoteCostLoop(Strategy.S1, 100, 256).run(new long[] {100, 1000}, 0);

        assertThat(r.stopped()).hasValueSatisfying(w -> assertThat(w).contains("time budget"));
        assertThat(command.verdict(r)).startsWith("NOT REACHED");
    }

    @Test
    void noteNamesAreTheFormattedOnes() {
        for (long n : new long[] {1, 9, 10, 99_999, 123_456_789, 999_999_999, 1_000_000_000L, 12_345_678_901L}) {
            assertThat(NoteCostLoop.noteName(n)).isEqualTo(String.format("n%09d", n));
        }
    }
}
