package dev.onceproof.conformance.replay.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.StoredTraces;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.scmp.ScmpServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stored traces of specs/adaptive (traces/adaptive) replay on the SCMP core with a scripted
 * estimator, and replay catches a core whose standard-form skeleton is broken whatever the
 * estimator does.
 */
class AdaptiveReplayTest {

    private static final Repo REPO = Repo.locate();

    private static TraceReplayer replayer(AdaptiveReplayer family) {
        return new TraceReplayer(ReplayerRegistry.standard().with(family));
    }

    private static Path trace(String stem) {
        return REPO.traces().resolve("adaptive").resolve(stem + ".jsonl");
    }

    @Test
    void everyStoredAdaptiveTraceReplaysOnTheCore() {
        List<Path> files = StoredTraces.family(REPO, "adaptive");
        assertThat(files).hasSizeGreaterThanOrEqualTo(4);
        TraceReplayer replayer = replayer(new AdaptiveReplayer());
        for (Path f : files) {
            ReplayResult r = replayer.replay(f);
            assertThat(r.passed()).as(r.report()).isTrue();
            assertThat(r.spec()).isEqualTo("Adaptive");
        }
    }

    /**
     * Lemma 1, Case 3: garbage collection must raise upper to the removed timestamp before the
     * entry goes. A core that forgets upper leaves the trace at the CollectGarbage step, where the
     * spec's upper rose and the core's did not, before any duplicate is even received.
     */
    @Test
    void aCoreWhoseCollectionForgetsUpperIsCaught() {
        AdaptiveReplayer broken = new AdaptiveReplayer((config, clock, storage) ->
                new ScmpServer(config, clock, storage) {
                    @Override
                    protected void raiseUpper(String rhoClass, long ts) {
                        // broken on purpose: the removed timestamp is remembered nowhere
                    }
                });
        ReplayResult r = replayer(broken).replay(trace("adaptive-gc-copy-rejected"));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("CollectGarbage");
        assertThat(r.failure().mismatches()).anySatisfy(m -> assertThat(m.field()).isEqualTo("upper"));
        assertThat(r.report()).contains("upper");
    }

    /** Fig. 1's strict test "stamp > lim_i": a core accepting at the bound is caught at a Receive. */
    @Test
    void aCoreThatAcceptsAtTheBoundIsCaught() {
        AdaptiveReplayer broken = new AdaptiveReplayer((config, clock, storage) ->
                new ScmpServer(config, clock, storage) {
                    @Override
                    protected boolean isNew(long ts, long bound) {
                        return ts >= bound;
                    }
                });
        ReplayResult r = replayer(broken).replay(trace("adaptive-gc-copy-rejected"));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Receive");
        assertThat(r.failure().mismatches()).anySatisfy(m -> assertThat(m.field()).isEqualTo("verdict"));
    }
}
