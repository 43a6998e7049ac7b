package dev.onceproof.bench.exactlyonce;

/**
 * What the simulator of the real cores says at one point, as p_i/p_0: the mean-value mode's ratio
 * and the stochastic mode's mean with its 95% confidence interval. A column is null when it was not
 * simulated, and {@code missing} says why (e.g. the S5 core refuses T_r <= T_u, its rule R3).
 */
public record Simulated(Double meanValue, Estimate stochastic, String missing) {

    /**
     * A stochastic estimate of p_i/p_0: mean, 95% interval, over {@code connections} connections.
     * {@code extended} connections (Strategy i's or Strategy 0's run) used up the notes they were
     * first given and were re-run on the same random stream with more notes; {@code starved} still ran
     * out at the cap (their counts are then too low; 0 unless the cap was reached).
     */
    public record Estimate(double mean, double lo, double hi, long connections, long starved, long extended) {
    }

    public static Simulated none(String why) {
        return new Simulated(null, null, why);
    }
}
