package dev.onceproof.conformance.lincheck;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.FixedRho;
import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import java.util.Map;

/**
 * The small worlds the RPC server's Lincheck tests explore: {@link LincheckScenario}'s two
 * connections, timestamps 1..3, a clock that starts at 1 and only ticks forward. Rho 0 (c1) and 1
 * (c2) and kappa 0, so that Figure 3-1's collection rule (reply_time < clock - max(rho, kappa)) lets
 * GC remove a completed call's entry one tick (c1) or two (c2) after the completion.
 *
 * <p>Monotonic (epsilon 1) and resilient (beta 1): ts 3 is too early until a tick (and, resilient,
 * a WriteLatest). Both start where the per-key sections matter (found by measurement, as for the
 * filter): call c1@1 was executed and completed, call c2@1 is computing, and the clock ticked to 2,
 * so c1's REPLYING entry is collectable at once and GC races duplicates, truncated retransmissions,
 * acknowledgements and new calls on c1.
 */
final class RpcLincheckScenario {

    static final long START_CLOCK = 1;
    static final long KAPPA = 0;
    private static final Map<String, LifetimeEstimator> RHO = Map.of("k1", new FixedRho(0), "k2", new FixedRho(1));
    static final ScmpConfig MONOTONIC = new ScmpConfig(RecoveryScheme.MONOTONIC, 0, 1, RHO,
            c -> c.value().equals("c1") ? "k1" : "k2");
    static final ScmpConfig RESILIENT = new ScmpConfig(RecoveryScheme.RESILIENT, 1, 1, RHO,
            c -> c.value().equals("c1") ? "k1" : "k2");
    static final Payload ARGS = Payload.ofUtf8("args");
    static final Payload RESULT = Payload.ofUtf8("result");

    private RpcLincheckScenario() {
    }

    static RpcMessage.Call call(int conn, int ts) {
        return new RpcMessage.Call(LincheckScenario.conn(conn), Timestamp.of(ts), ARGS);
    }

    static RpcMessage.TruncatedCall truncatedCall(int conn, int ts) {
        return new RpcMessage.TruncatedCall(LincheckScenario.conn(conn), Timestamp.of(ts));
    }

    static RpcMessage.ReplyAck replyAck(int conn, int ts) {
        return new RpcMessage.ReplyAck(LincheckScenario.conn(conn), Timestamp.of(ts));
    }
}
