package dev.onceproof.bench.exactlyonce;

import java.util.Optional;

/** Runs the strategies' cores on the circle network of section 4. */
public interface Simulator {

    /** Why Strategy {@code strategy} cannot be simulated here, or empty when it can. */
    Optional<String> missing(int strategy);

    /** Why Strategy {@code strategy} cannot be simulated at {@code p} (its core refuses them), or empty. */
    default Optional<String> missingAt(int strategy, Params p) {
        return missing(strategy);
    }

    /**
     * The mean-value mode (every delay its expectation, the paper's simplifications, notes Z23): p_i,
     * the notes the client processes in a connection of T_c seconds, counted as the paper counts.
     */
    double meanValue(int strategy, Params p);

    /**
     * The stochastic mode: {@code connections} connections with delays drawn from f_d and a random NAP
     * each; the estimate of p_i/p_0 (Strategy 0 run on the same draws) with its 95% interval.
     */
    Simulated.Estimate stochasticRatio(int strategy, Params p, long seed, int connections);

    /** The simulated columns of one point (as p_i/p_0), or why there are none. */
    default Simulated simulate(int strategy, Params p, long seed, int connections) {
        Optional<String> why = missingAt(strategy, p);
        if (why.isPresent()) {
            return Simulated.none(why.get());
        }
        double p0 = meanValue(0, p);
        double ratio = p0 == 0 ? Double.NaN : meanValue(strategy, p) / p0;
        return new Simulated(ratio, connections > 0 ? stochasticRatio(strategy, p, seed, connections) : null,
                connections > 0 ? null : "stochastic mode not run at this point");
    }
}
