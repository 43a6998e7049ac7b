package dev.onceproof.bench.rpc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Median, quartiles and extremes of repeated measurements. The median, not the mean: on a shared
 * 2-core machine one round can be slowed by a compile elsewhere, and a mean would carry that.
 */
public record Summary(int n, double median, double q1, double q3, double min, double max, double p10,
                      List<Double> samples) {

    public static Summary of(List<Double> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples to summarize");
        }
        List<Double> sorted = new ArrayList<>(samples);
        Collections.sort(sorted);
        return new Summary(sorted.size(), quantile(sorted, 0.5), quantile(sorted, 0.25),
                quantile(sorted, 0.75), sorted.get(0), sorted.get(sorted.size() - 1), quantile(sorted, 0.1),
                List.copyOf(samples));
    }

    /** Linear interpolation between closest ranks (the usual "type 7" quantile). */
    static double quantile(List<Double> sorted, double p) {
        double rank = p * (sorted.size() - 1);
        int lo = (int) Math.floor(rank);
        int hi = (int) Math.ceil(rank);
        return sorted.get(lo) + (rank - lo) * (sorted.get(hi) - sorted.get(lo));
    }
}
