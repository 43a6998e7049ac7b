package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.FixedRho;
import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import java.util.Map;

/**
 * The small worlds the SCMP filter's Lincheck tests explore: two connections in two rho classes,
 * timestamps 1..4, a server clock that starts at 2 and only ticks forward (the monotonic scheme
 * assumes that; the resilient one does not need it, but a clock that jumps back makes WriteLatest a
 * no-op, which adds nothing here). Small on purpose: model checking explores interleavings
 * exhaustively, so every value here multiplies the run time.
 *
 * <p>Each world starts where its safeguards matter, so that short scenarios reach them (found by
 * measurement: from the spec's Init, the random scenarios that catch a reordering in recovery or
 * collection need a receive, a restart, ticks and the racing pair in the right threads, and the
 * bounds that find them blow the 20 s budget):
 * <ul>
 *   <li>monotonic: c1@2 and c2@3 were accepted, then the process crashed and recovered at clock 2
 *       (refuseUntil 3), and the clock ticked to 3, so FinishRecovery may run at once and races
 *       receives of the pre-crash messages;</li>
 *   <li>resilient (beta 1, so latest is 3): c1@1 and c2@2 were accepted and c1's entry is already
 *       collectable (rho 1), so a collection races a late duplicate at once; ts 4 is too early until a
 *       tick and a WriteLatest.</li>
 * </ul>
 */
final class LincheckScenario {

    static final long START_CLOCK = 2;
    private static final Map<String, LifetimeEstimator> RHO = Map.of("k1", new FixedRho(1), "k2", new FixedRho(2));
    static final ScmpConfig MONOTONIC = new ScmpConfig(RecoveryScheme.MONOTONIC, 0, 1, RHO,
            c -> c.value().equals("c1") ? "k1" : "k2");
    static final ScmpConfig RESILIENT = new ScmpConfig(RecoveryScheme.RESILIENT, 1, 1, RHO,
            c -> c.value().equals("c1") ? "k1" : "k2");

    private static final ConnId[] CONNS = {ConnId.of("c1"), ConnId.of("c2")};

    private LincheckScenario() {
    }

    static ConnId conn(int index) {
        return CONNS[index - 1];
    }

    /** (conn, ts) accepted before the scenario starts, in this order. */
    static int[][] acceptedBefore(ScmpConfig config) {
        return config.scheme() == RecoveryScheme.MONOTONIC ? new int[][] {{1, 2}, {2, 3}} : new int[][] {{1, 1}, {2, 2}};
    }

    /** Whether the process crashed and recovered (then ticked once) after those acceptances. */
    static boolean restartedBefore(ScmpConfig config) {
        return config.scheme() == RecoveryScheme.MONOTONIC;
    }
}
