package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.FixedRho;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import java.util.Map;

/**
 * The small world both Lincheck tests explore: two connections in two rho classes, timestamps
 * 1..4, a server clock that starts at 2 and only ticks forward. Small on purpose: model checking
 * explores interleavings exhaustively, so every value here multiplies the run time.
 *
 * <p>The monotonic scheme with epsilon 1, because there every verdict depends on the clock (ts 4 is
 * too early until a tick), so the interleavings of receive, collection and tick all matter; its
 * safety assumes a clock that never goes back, which tick respects.
 */
final class LincheckScenario {

    static final long START_CLOCK = 2;
    /** Rho 1 and 2 make an entry collectable after a tick or two, so collection races receives. */
    static final ScmpConfig CONFIG = new ScmpConfig(RecoveryScheme.MONOTONIC, 0, 1,
            Map.of("k1", new FixedRho(1), "k2", new FixedRho(2)),
            c -> c.value().equals("c1") ? "k1" : "k2");

    private static final ConnId[] CONNS = {ConnId.of("c1"), ConnId.of("c2")};

    private LincheckScenario() {
    }

    static ConnId conn(int index) {
        return CONNS[index - 1];
    }
}
