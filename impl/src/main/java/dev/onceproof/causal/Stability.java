package dev.onceproof.causal;

/**
 * What a node knows of every node's delivered prefix, learnt from the clocks that messages carry:
 * an event's clock is its origin's delivered prefix when it issued it, and a heartbeat carries its
 * sender's prefix. Row {@code self} is the node's own prefix. Event (k, s) is stable, and may leave
 * the recovery store, once every row has component k &ge; s: every node has delivered it, so nobody
 * will ask for it again. (The paper is silent on this; reading notes section 7.)
 *
 * <p>A crashed node's row stops growing, so nothing it has not delivered becomes stable until the
 * view change removes it ({@link CausalNode#installView}); then its row is excluded.
 */
final class Stability {

    private final long[][] known;
    /** Rows of nodes removed from the view: they no longer hold the stable prefix (CausalMembership MStable). */
    private final boolean[] excluded;

    Stability(int n) {
        known = new long[n][n];
        excluded = new boolean[n];
    }

    void exclude(int j) {
        excluded[j] = true;
    }

    /**
     * Spec Join: j joined the view, and its row counts from now on, starting from {@code start}, a
     * lower bound of j's progress (this node's row of the donor, or the donor's own prefix).
     */
    void include(int j, VectorClock start) {
        excluded[j] = false;
        learn(j, start);
    }

    /** Node j is known to have delivered at least prefix {@code vc}. */
    void learn(int j, VectorClock vc) {
        long[] row = known[j];
        for (int k = 0; k < row.length; k++) {
            row[k] = Math.max(row[k], vc.get(k));
        }
    }

    void learn(int j, int k, long prefix) {
        known[j][k] = Math.max(known[j][k], prefix);
    }

    /** What is known of node j's delivered prefix. */
    VectorClock row(int j) {
        return VectorClock.of(known[j].clone());
    }

    /** Every event (k, 1..result) is stable: the least row's component k. */
    long stablePrefix(int k) {
        long min = Long.MAX_VALUE;
        for (int j = 0; j < known.length; j++) {
            if (!excluded[j]) {
                min = Math.min(min, known[j][k]);
            }
        }
        return min;
    }
}
