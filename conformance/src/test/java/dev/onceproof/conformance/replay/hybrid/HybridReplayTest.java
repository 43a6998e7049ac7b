package dev.onceproof.conformance.replay.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.StoredTraces;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.rpc.hybrid.CallOutcome;
import dev.onceproof.rpc.hybrid.HybridEntry;
import dev.onceproof.rpc.hybrid.HybridMessage;
import dev.onceproof.rpc.hybrid.HybridServerCore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spec-to-core link for the 3.2 hybrid (specs/rpc/Hybrid.tla): every stored hybrid trace replays
 * on the Java cores, and a server core with one safeguard removed is stopped at the step where it
 * leaves the spec.
 */
class HybridReplayTest {

    private final Repo repo = Repo.locate();

    @Test
    void everyStoredHybridTraceReplaysOnTheCores() {
        List<Path> traces = StoredTraces.family(repo, "rpc").stream()
                .filter(p -> p.getFileName().toString().startsWith("rpc-hybrid-")).toList();
        assertThat(traces).extracting(p -> p.getFileName().toString()).contains("rpc-hybrid-sim-seed1.jsonl",
                "rpc-hybrid-late-copy-below-upper.jsonl", "rpc-hybrid-stale-after-crash.jsonl",
                "rpc-hybrid-retransmit-reply.jsonl", "rpc-hybrid-duplicate-after-ack.jsonl",
                "rpc-hybrid-client-timeout.jsonl");
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        for (Path t : traces) {
            ReplayResult r = replayer.replay(t);
            assertThat(r.passed()).as(r.report()).isTrue();
            assertThat(r.steps()).isGreaterThan(3);
        }
    }

    @Test
    void collectionThatDoesNotRaiseUpperIsCaught() {
        // 3.2: "The entry can be removed, and G.upper updated": this core forgets the update.
        ReplayResult r = replayOnBrokenCore("rpc-hybrid-late-copy-below-upper.jsonl",
                (clock, rho, inc) -> new HybridServerCore(clock, rho, inc) {
                    @Override
                    protected long upperAfterCollecting(long upper, HybridEntry removed) {
                        return upper;
                    }
                });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("CollectGarbage");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).containsExactly("upper");
    }

    @Test
    void callWithoutEntryAcceptedWhateverUpperIsCaught() {
        // Birrell and Nelson's rule 3 ("If there is no entry in the table, the message is accepted")
        // where the hybrid uses SCMP's: the late copy is executed a second time.
        ReplayResult r = replayOnBrokenCore("rpc-hybrid-late-copy-below-upper.jsonl",
                (clock, rho, inc) -> new HybridServerCore(clock, rho, inc) {
                    @Override
                    protected CallOutcome judgeWithoutEntry(HybridMessage.Call m, long upper) {
                        return CallOutcome.EXECUTE;
                    }
                });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ReceiveCall");
        assertThat(r.failure().mismatches()).first().satisfies(m -> {
            assertThat(m.field()).isEqualTo("outcome");
            assertThat(m.expected()).isEqualTo("\"belowUpper\"");
            assertThat(m.actual()).isEqualTo("\"execute\"");
        });
        assertThat(r.report()).contains("rpc-hybrid-late-copy-below-upper.jsonl:");
    }

    private ReplayResult replayOnBrokenCore(String trace, HybridReplayer.ServerFactory broken) {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard().with(new HybridReplayer(broken)));
        return replayer.replay(repo.traces().resolve("rpc").resolve(trace));
    }
}
