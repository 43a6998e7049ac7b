package dev.onceproof.conformance.replay.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.StoredTraces;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.scmp.ScmpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stored traces of specs/adaptive (traces/adaptive) replay on the SCMP core: the skeleton's
 * with a scripted estimator, Figs. 2 and 3 with the Java estimators; replay catches a core whose
 * standard-form skeleton is broken whatever the estimator does, and an estimator that disagrees.
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
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        Set<String> specs = new TreeSet<>();
        for (Path f : files) {
            ReplayResult r = replayer.replay(f);
            assertThat(r.passed()).as(r.report()).isTrue();
            specs.add(r.spec());
        }
        // The skeleton with scripted estimates, and Figs. 2 and 3 with the real Java estimators.
        assertThat(specs).containsExactly("Adaptive", "AdaptiveLimited", "AdaptiveUnlimited");
    }

    /**
     * The estimator comparison is live: a Fig. 2 trace whose p disagrees with what the Java
     * UnlimitedHorizonEstimator computes is reported at that step, field p.
     */
    @Test
    void aTraceDisagreeingWithTheJavaEstimatorOnPIsReported(@TempDir Path tmp) throws Exception {
        Path original = trace("adaptive-unlimited-sim-seed1");
        List<String> lines = Files.readAllLines(original);
        int at = -1;
        for (int i = 2; i < lines.size() && at < 0; i++) {
            if (lines.get(i).contains("\"action\":\"CollectGarbage\"")) {
                at = i;
            }
        }
        assertThat(at).as("a CollectGarbage step in " + original).isPositive();
        ObjectMapper json = new ObjectMapper();
        ObjectNode step = (ObjectNode) json.readTree(lines.get(at));
        long p = step.get("state").get("p").asLong();
        ((ObjectNode) step.get("state")).put("p", p + 1);
        lines.set(at, json.writeValueAsString(step));
        Path edited = tmp.resolve("edited.jsonl");
        Files.write(edited, lines);
        ReplayResult r = new TraceReplayer(ReplayerRegistry.standard()).replay(edited);
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().step()).isEqualTo(step.get("step").asInt());
        assertThat(r.failure().mismatches()).singleElement().satisfies(m -> {
            assertThat(m.field()).isEqualTo("p");
            assertThat(m.expected()).isEqualTo(Long.toString(p + 1));
            assertThat(m.actual()).isEqualTo(Long.toString(p));
        });
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
