package dev.onceproof.bench.exactlyonce;

import java.util.EnumSet;
import org.apache.commons.statistics.descriptive.DoubleStatistics;
import org.apache.commons.statistics.descriptive.Statistic;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The verdict rules of the claims on the cores' numbers, kept apart from the runs so a unit test can
 * feed them numbers that break the property and see FAIL.
 */
final class Judge {

    private Judge() {
    }

    /**
     * Slack added to either side of a stochastic interval before an App. B value or a model's
     * prediction is compared with it: the model ignores that notes come whole, and App. B's figures
     * are read off curves. Fixed before looking at the numbers it judges.
     */
    static final double SLACK = 0.02;

    /** A ratio reaches 1 ("no observable overhead", L330) when its interval reaches 1 - this. */
    static final double AT_ONE = 0.01;

    /**
     * PASS when App. B's value lies in the interval (with {@link #SLACK}); otherwise GAP when the
     * prediction of the stated reason does, FAIL when neither does (the gap is not what we say it is).
     */
    static Claim.Status gap(double appB, Simulated.Estimate e, double predicted) {
        if (within(appB, e)) {
            return Claim.Status.PASS;
        }
        return within(predicted, e) ? Claim.Status.GAP : Claim.Status.FAIL;
    }

    static boolean within(double v, Simulated.Estimate e) {
        return v >= e.lo() - SLACK && v <= e.hi() + SLACK;
    }

    /** Whether the ratio shows no observable overhead (its interval reaches 1, L330). */
    static boolean atOne(Simulated.Estimate e) {
        return e.hi() >= 1 - AT_ONE;
    }

    /** {@code a} is significantly below {@code b}: the intervals do not overlap. */
    static boolean below(Simulated.Estimate a, Simulated.Estimate b) {
        return a.hi() < b.lo();
    }

    /** The mean of {@code x} with its 95% Student t interval (n - 1 degrees of freedom). */
    static Simulated.Estimate mean(double[] x) {
        int n = x.length;
        if (n < 2) {
            throw new IllegalArgumentException("a 95% interval needs at least 2 values, got " + n);
        }
        DoubleStatistics s = DoubleStatistics.of(EnumSet.of(Statistic.MEAN, Statistic.VARIANCE), x);
        double m = s.getAsDouble(Statistic.MEAN);
        double half = TDistribution.of(n - 1).inverseCumulativeProbability(0.975)
                * Math.sqrt(s.getAsDouble(Statistic.VARIANCE) / n);
        return new Simulated.Estimate(m, m - half, m + half, n, 0, 0);
    }

    /** The mean of {@code a[k] - b[k]} with its 95% interval (paired: connection k of both). */
    static Simulated.Estimate pairedDifference(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("paired samples of different sizes: " + a.length + " and " + b.length);
        }
        double[] d = new double[a.length];
        for (int k = 0; k < d.length; k++) {
            d[k] = a[k] - b[k];
        }
        return mean(d);
    }

    static String show(Simulated.Estimate e) {
        return PaperClaims.fmt("%.3f [%.3f, %.3f]", e.mean(), e.lo(), e.hi());
    }
}
