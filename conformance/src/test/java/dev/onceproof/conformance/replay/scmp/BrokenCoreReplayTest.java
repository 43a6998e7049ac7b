package dev.onceproof.conformance.replay.scmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.scmp.ScmpServer;
import org.junit.jupiter.api.Test;

/**
 * The spec-to-core link must be able to fail (DESIGN.md, chain of trust): each test removes one
 * safeguard through a mutation seam of ScmpServer and shows that replaying a stored trace of the
 * scenario the safeguard exists for stops at the step where the core leaves the spec.
 */
class BrokenCoreReplayTest {

    private final Repo repo = Repo.locate();

    private ReplayResult replayOnBrokenCore(String trace, ScmpReplayer.ServerFactory broken) {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard().with(new ScmpReplayer(broken)));
        return replayer.replay(repo.traces().resolve("scmp").resolve(trace));
    }

    @Test
    void garbageCollectionThatForgetsUpperIsCaught() {
        // Fig. 2-1: "G.upper is set to the maximum of its former value and the timestamps of the removed entries".
        ReplayResult r = replayOnBrokenCore("scmp-gc-duplicate.jsonl", (c, k, s) -> new ScmpServer(c, k, s) {
            @Override
            protected void raiseUpper(String rhoClass, long ts) {
                // safeguard removed: the entry goes, upper stays
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("CollectGarbage");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).containsExactly("upper.k1");
        assertThat(r.report())
                .contains("scmp-gc-duplicate.jsonl:" + (r.failure().step() + 2) + ": step " + r.failure().step()
                        + ", CollectGarbage {\"conn\":\"c1\"}: the core differs from the spec")
                .contains("upper.k1");
    }

    @Test
    void recoveryThatKeepsTheOldUpperIsCaught() {
        // Fig. 2-2 crash recovery / 2.3: "G.latest_precrash <= G.upper_postcrash".
        ReplayResult r = replayOnBrokenCore("scmp-duplicate-after-crash.jsonl", (c, k, s) -> new ScmpServer(c, k, s) {
            @Override
            protected long recoveredUpper(String rhoClass, long bound) {
                return Math.min(0, k.millis() - c.rhoClasses().get(rhoClass).current());
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Recover");
        assertThat(r.report()).contains("upper.k1");
    }

    @Test
    void serverWithoutTheTooEarlyRuleIsCaught() {
        // Fig. 2-2 rule 1: a message with a timestamp above latest is refused.
        ReplayResult r = replayOnBrokenCore("scmp-skew-too-early.jsonl", (c, k, s) -> new ScmpServer(c, k, s) {
            @Override
            protected boolean isTooEarly(long ts) {
                return false;
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Receive");
        assertThat(r.failure().mismatches()).first().satisfies(m -> {
            assertThat(m.field()).isEqualTo("verdict");
            assertThat(m.expected()).isEqualTo("\"tooEarly\"");
            assertThat(m.actual()).isEqualTo("\"accepted\"");
        });
    }

    @Test
    void latestRaisedWithoutAStableWriteIsCaught() {
        // Fig. 2-2 "Maintaining Latest": G.time + beta goes to stable storage, then latest is set to it.
        ReplayResult r = replayOnBrokenCore("scmp-clock-jump.jsonl", (c, k, s) -> new ScmpServer(c, k, s) {
            @Override
            protected void persistLatest(long value) {
                // safeguard removed: latest rises, stable storage never hears of it
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("WriteLatest");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).containsExactly("stableLatest");
    }
}
