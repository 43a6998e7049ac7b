package dev.onceproof.bench.exactlyonce;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Footnote 7 measured: App. B takes the fan-out to the other servers as the largest EXPECTED delay,
 * {@code t_ss = lambda (D/N) floor(N/2)}, "an optimistic estimate". Under f_d the mean of the
 * largest of the N-1 round trips is longer, which is the main reason the stochastic simulation
 * needs more R slots than the closed form (and why Strategy 4's analytic ratio is optimistic).
 *
 * @param analytic  2 t_ss, the round trip App. B uses
 * @param simulated the mean over {@code samples} fan-outs of the largest round trip, drawn from f_d
 * @param samples   fan-outs drawn
 */
record Footnote7(double analytic, double simulated, int samples) {

    static Footnote7 measure(Params p, long seed, int samples) {
        UniformRandomProvider rng = CoreSimulator.stream(seed, 0);
        Circle circle = Circle.stochastic(p, rng);
        double sum = 0;
        for (int k = 0; k < samples; k++) {
            double max = 0;
            for (int j = 1; j < p.N(); j++) {
                double hops = circle.serverHops(0, j);
                max = Math.max(max, circle.fixed(hops) + circle.fixed(hops));
            }
            sum += max;
        }
        return new Footnote7(2 * ClosedForms.tss(p), sum / samples, samples);
    }
}
