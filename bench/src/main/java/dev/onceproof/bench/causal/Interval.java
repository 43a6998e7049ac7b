package dev.onceproof.bench.causal;

import java.util.Locale;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * A confidence interval around an estimate, from Commons Statistics quantiles: Clopper-Pearson for a
 * count of successes among independent trials, Student t for the mean of independent replications.
 */
record Interval(double estimate, double lo, double hi) {

    boolean contains(double x) {
        return x >= lo && x <= hi;
    }

    double halfWidth() {
        return (hi - lo) / 2;
    }

    /** Family-wise level of the checks: 95% for all of them together. */
    static final double FAMILY_LEVEL = 0.95;

    /**
     * The level for each of {@code m} intervals checked together, so that all m hold with probability
     * at least 95% (Bonferroni): a check over a grid of points must not fail by chance at one of them.
     */
    static double simultaneous(int m) {
        return 1 - (1 - FAMILY_LEVEL) / m;
    }

    /** Exact binomial (Clopper-Pearson) interval for k successes in n trials, two-sided level conf. */
    static Interval binomial(long k, long n, double conf) {
        Params.require("trials", n, n >= 1, "must be >= 1");
        Params.require("successes", k, k >= 0 && k <= n, "must be in [0, trials]");
        double a = (1 - conf) / 2;
        double lo = k == 0 ? 0 : BetaDistribution.of(k, n - k + 1).inverseCumulativeProbability(a);
        double hi = k == n ? 1 : BetaDistribution.of(k + 1, n - k).inverseCumulativeProbability(1 - a);
        return new Interval((double) k / n, lo, hi);
    }

    /** Student t interval for the mean of independent replications (at least 2). */
    static Interval mean(double[] xs, double conf) {
        Params.require("replications", xs.length, xs.length >= 2, "must be >= 2");
        double sum = 0;
        for (double x : xs) {
            sum += x;
        }
        double m = sum / xs.length;
        double ss = 0;
        for (double x : xs) {
            ss += (x - m) * (x - m);
        }
        double se = Math.sqrt(ss / (xs.length - 1) / xs.length);
        double q = TDistribution.of(xs.length - 1).inverseCumulativeProbability(1 - (1 - conf) / 2);
        return new Interval(m, m - q * se, m + q * se);
    }

    /**
     * The mean of independent replications of a share, each over {@code perReplication} cases: the
     * Student t interval, widened where needed to the Clopper-Pearson interval of the pooled count.
     * The t interval alone collapses to a point when every replication gives 0 (or 1), as in a CDF's
     * far tails; the pooled binomial interval alone would treat correlated cases as independent.
     */
    static Interval shareOfReplications(double[] shares, long perReplication, double conf) {
        Interval t = mean(shares, conf);
        double sum = 0;
        for (double s : shares) {
            sum += s;
        }
        long n = perReplication * shares.length;
        Interval b = binomial(Math.round(sum * perReplication), n, conf);
        return new Interval(t.estimate(), Math.min(t.lo(), b.lo()), Math.max(t.hi(), b.hi()));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.5f [%.5f, %.5f]", estimate, lo, hi);
    }
}
