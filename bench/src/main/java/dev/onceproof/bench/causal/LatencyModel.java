package dev.onceproof.bench.causal;

import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.statistics.distribution.ExponentialDistribution;
import org.apache.commons.statistics.distribution.ParetoDistribution;

/**
 * The paper's one-way latency models (Martori and Urso 2016, section 2.2): the CDF the equations use
 * and a seeded sampler the simulator draws from. Every link uses the same model (section 4.6).
 */
public sealed interface LatencyModel {

    /** P(X &lt;= t), t the time since the message was sent. */
    double cdf(double t);

    /** Draws one latency from {@code rng}; the sampler keeps no state but the generator's. */
    ContinuousSampler sampler(UniformRandomProvider rng);

    /** Mean one-way latency. */
    double mean();

    /** Variance of the one-way latency; infinite for a Pareto part with alpha &lt;= 2. */
    double variance();

    /** The latency below which a message arrives with probability {@code u}. */
    default double quantile(double u) {
        Params.require("u", u, u > 0 && u < 1, "must be in (0, 1)");
        // The CDF is continuous and increasing from 0; bracket, then bisect to double precision.
        double hi = mean() > 0 && Double.isFinite(mean()) ? mean() : 1;
        while (cdf(hi) < u) {
            hi *= 2;
        }
        double lo = 0;
        for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
            double mid = (lo + hi) / 2;
            if (cdf(mid) < u) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    String describe();

    /**
     * Eq. 1: P(X &lt;= t) = 1 - e^(-lambda t); 1/lambda is the mean one-way time.
     *
     * @param lambda rate of the exponential latency, &gt; 0
     */
    record Exponential(double lambda) implements LatencyModel {
        public Exponential {
            Params.require("lambda", lambda, lambda > 0 && Double.isFinite(lambda), "must be finite and > 0");
        }

        @Override
        public double cdf(double t) {
            return t <= 0 ? 0 : -Math.expm1(-lambda * t);
        }

        @Override
        public ContinuousSampler sampler(UniformRandomProvider rng) {
            return ExponentialDistribution.of(1 / lambda).createSampler(rng)::sample;
        }

        @Override
        public double mean() {
            return 1 / lambda;
        }

        @Override
        public double variance() {
            return 1 / (lambda * lambda);
        }

        @Override
        public double quantile(double u) {
            Params.require("u", u, u > 0 && u < 1, "must be in (0, 1)");
            return -Math.log1p(-u) / lambda;
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "Exp(lambda=%s)", lambda);
        }
    }

    /**
     * Eq. 2, repaired: the paper adds the Pareto <em>density</em> alpha x_m^alpha / t^(alpha+1) to an
     * exponential CDF, which is not a probability (notes X3). The mixture's CDF uses the Pareto CDF:
     * p (1 - e^(-lambda t)) + (1 - p) (1 - (x_m / t)^alpha) for t &gt;= x_m, and only the first term
     * below x_m. The Pareto part is the bulk, the exponential part the tail (PBS [2]).
     *
     * @param p      share of the exponential part, in [0, 1]
     * @param lambda rate of the exponential part, &gt; 0
     * @param alpha  Pareto shape, &gt; 0
     * @param xm     Pareto scale (the smallest Pareto latency), &gt; 0
     */
    record ParetoExponential(double p, double lambda, double alpha, double xm) implements LatencyModel {
        public ParetoExponential {
            Params.require("p", p, p >= 0 && p <= 1, "must be in [0, 1]");
            Params.require("lambda", lambda, lambda > 0 && Double.isFinite(lambda), "must be finite and > 0");
            Params.require("alpha", alpha, alpha > 0 && Double.isFinite(alpha), "must be finite and > 0");
            Params.require("xm", xm, xm > 0 && Double.isFinite(xm), "must be finite and > 0");
        }

        @Override
        public double cdf(double t) {
            if (t <= 0) {
                return 0;
            }
            double exp = -Math.expm1(-lambda * t);
            double pareto = t < xm ? 0 : 1 - Math.pow(xm / t, alpha);
            return p * exp + (1 - p) * pareto;
        }

        @Override
        public ContinuousSampler sampler(UniformRandomProvider rng) {
            var exp = ExponentialDistribution.of(1 / lambda).createSampler(rng);
            var pareto = ParetoDistribution.of(xm, alpha).createSampler(rng);
            return () -> rng.nextDouble() < p ? exp.sample() : pareto.sample();
        }

        @Override
        public double mean() {
            double paretoMean = alpha > 1 ? alpha * xm / (alpha - 1) : Double.POSITIVE_INFINITY;
            return p / lambda + (1 - p) * paretoMean;
        }

        @Override
        public double variance() {
            if (alpha <= 2) {
                return Double.POSITIVE_INFINITY;
            }
            double paretoSecond = alpha * xm * xm / (alpha - 2);
            double second = p * 2 / (lambda * lambda) + (1 - p) * paretoSecond;
            double m = mean();
            return second - m * m;
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT, "%s*Exp(lambda=%s) + %s*Pareto(alpha=%s, xm=%s)", p, lambda,
                    1 - p, alpha, xm);
        }
    }
}
