package dev.onceproof.conformance.replay.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.StoredTraces;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.rpc.core.RpcServerCore;
import dev.onceproof.rpc.core.ServerEffect;
import dev.onceproof.rpc.core.ServerEntry;
import dev.onceproof.rpc.core.ServerOutcome;
import dev.onceproof.rpc.core.ServerStep;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spec-to-core link for RPC (DESIGN.md, chain of trust): every stored trace of specs/rpc replays
 * on the Java cores, and a core with one Figure 3-1 safeguard removed is stopped at the step where
 * it leaves the spec.
 */
class RpcReplayTest {

    private final Repo repo = Repo.locate();

    @Test
    void everyStoredRpcTraceReplaysOnTheCores() {
        List<Path> traces = StoredTraces.family(repo, "rpc");
        assertThat(traces).extracting(p -> p.getFileName().toString()).contains("rpc-sim-seed1.jsonl",
                "rpc-dup-computing-ack.jsonl", "rpc-dup-replying-reply.jsonl", "rpc-crash-recovery.jsonl",
                "rpc-gc-reject.jsonl", "rpc-client-timeout.jsonl", "rpc-reply-ack-idle.jsonl");
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        for (Path t : traces) {
            ReplayResult r = replayer.replay(t);
            assertThat(r.passed()).as(r.report()).isTrue();
            assertThat(r.steps()).isGreaterThan(3);
        }
    }

    @Test
    void serverThatReExecutesADuplicateInReplyingIsCaught() {
        // Fig. 3-1, 3: "if state is REPLYING, retransmit stored reply" -- this core runs the call again.
        ReplayResult r = replayOnBrokenCore("rpc-dup-replying-reply.jsonl", (c, k, s, kappa) -> new RpcServerCore(c, k, s, kappa) {
            @Override
            protected ServerStep duplicateWhileReplying(ConnId conn, ServerEntry entry, RpcMessage.Call fullCall) {
                return fullCall == null ? super.duplicateWhileReplying(conn, entry, fullCall) : startComputing(fullCall);
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ReceiveCall");
        assertThat(r.failure().mismatches()).first().satisfies(m -> {
            assertThat(m.field()).isEqualTo("outcome");
            assertThat(m.expected()).isEqualTo("\"retransmitReply\"");
            assertThat(m.actual()).isEqualTo("\"execute\"");
        });
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).contains("rpc.c1.state");
        assertThat(r.report()).contains("rpc-dup-replying-reply.jsonl:").contains("outcome");
    }

    @Test
    void serverThatRetransmitsTheWrongReplyIsCaught() {
        // Fig. 3-1, 3: the stored reply is retransmitted; this core sends an empty one instead.
        ReplayResult r = replayOnBrokenCore("rpc-dup-replying-reply.jsonl", (c, k, s, kappa) -> new RpcServerCore(c, k, s, kappa) {
            @Override
            protected ServerStep duplicateWhileReplying(ConnId conn, ServerEntry entry, RpcMessage.Call fullCall) {
                return new ServerStep(ServerOutcome.RETRANSMIT_REPLY, List.of(new ServerEffect.Send(
                        new RpcMessage.Reply(conn, entry.ts(), Payload.EMPTY))));
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ReceiveCall");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).containsExactly("effects");
    }

    private ReplayResult replayOnBrokenCore(String trace, RpcReplayer.ServerFactory broken) {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard().with(new RpcReplayer(broken)));
        return replayer.replay(repo.traces().resolve("rpc").resolve(trace));
    }
}
