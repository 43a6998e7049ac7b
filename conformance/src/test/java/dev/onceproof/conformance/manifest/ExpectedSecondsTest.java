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

    @Test
    void aModelWithFewStatesButLongRecordedSecondsComesFirst() {
        ModelEntry crash = model("causal-live-crash");
        ModelEntry s5 = model("exactlyonce-s5-safety");
        assertThat(crash.seconds()).isGreaterThan(s5.seconds());
        ToDoubleFunction<ModelEntry> seconds = ModelExpectation.expectedSeconds(REPO, REPO.manifest());
        assertThat(seconds.applyAsDouble(crash)).isEqualTo(crash.seconds());
        assertThat(seconds.applyAsDouble(crash)).isGreaterThan(seconds.applyAsDouble(s5));
        // The control: the state-count guess alone puts them the other way round.
        assertThat(ModelExpectation.cost(REPO, crash)).isLessThan(ModelExpectation.cost(REPO, s5));
    }
}
