package dev.onceproof.bench.causal;

/** The empirical CDF of a sorted sample. */
final class Ecdf {

    private Ecdf() {
    }

    /** Share of {@code sorted} at most x (0 for an empty sample). */
    static double share(double[] sorted, double x) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) { // first index with sorted[lo] > x
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return sorted.length == 0 ? 0 : (double) lo / sorted.length;
    }
}
