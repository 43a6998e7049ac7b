package dev.onceproof.conformance.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * What verify and the ci-models test order by (longest first): the recorded seconds, not the state
 * count. The slowest ci model has only 512 states, so ordering by states started it 91st of 162.
 */
class ExpectedSecondsTest {

    private static final Repo REPO = Repo.locate();

    private static ModelEntry model(String name) {
        return REPO.manifest().models().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * A pair the state count orders the wrong way round (a liveness model with few states that
     * records more seconds than a safety model with many), taken from the manifest so that
     * re-timing the models does not break the test: causal-live-crash (512 states) against
     * exactlyonce-s5-safety (93,999) when it was written.
     */
    @Test
    void aModelWithFewStatesButLongRecordedSecondsComesFirst() {
        java.util.List<ModelEntry> timed = REPO.manifest().models().stream()
                .filter(m -> m.mode() == ModelEntry.Mode.CI && m.seconds() != null).toList();
        ModelEntry slow = null;
        ModelEntry big = null;
        for (ModelEntry a : timed) {
            for (ModelEntry b : timed) {
                if (a.seconds() > b.seconds() && ModelExpectation.cost(REPO, a) < ModelExpectation.cost(REPO, b)
                        && (slow == null || a.seconds() - b.seconds() > slow.seconds() - big.seconds())) {
                    slow = a;
                    big = b;
                }
            }
        }
        assertThat(slow).as("a ci model with fewer states but more recorded seconds than another").isNotNull();
        ToDoubleFunction<ModelEntry> seconds = ModelExpectation.expectedSeconds(REPO, REPO.manifest());
        assertThat(seconds.applyAsDouble(slow)).isEqualTo(slow.seconds());
        assertThat(seconds.applyAsDouble(slow)).as("%s before %s", slow.name(), big.name())
                .isGreaterThan(seconds.applyAsDouble(big));
        // The control: the state-count guess alone puts them the other way round.
        assertThat(ModelExpectation.cost(REPO, slow)).isLessThan(ModelExpectation.cost(REPO, big));
    }
}
