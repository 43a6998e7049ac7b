package dev.onceproof.conformance.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which model runs check their temporal properties only on the complete graph: the ci models
 * expected to pass, never a mutant (a periodic check can find its violation early) nor a model
 * without temporal properties (the flag would change nothing).
 */
class FinalLivenessCheckTest {

    private static final Repo REPO = Repo.locate();

    private static ModelEntry model(String name) {
        return REPO.manifest().models().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }

    private static boolean finalOnly(String name) {
        return ModelExpectation.request(REPO, model(name), Duration.ofMinutes(1)).extraArgs()
                .containsAll(List.of("-lncheck", "final"));
    }

    @Test
    void aPassingCiLivenessModelChecksOnlyAtTheEnd() {
        assertThat(finalOnly("causal-live-crash")).isTrue();
    }

    @Test
    void aLivenessMutantKeepsThePeriodicCheck() {
        assertThat(finalOnly("exactlyonce-mutant-s3msg-sync-on-delivery-only")).isFalse();
    }

    @Test
    void aSafetyModelGetsNoFlag() {
        assertThat(finalOnly("rpc-safety")).isFalse();
    }
}
