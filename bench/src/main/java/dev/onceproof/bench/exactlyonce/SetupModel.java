package dev.onceproof.bench.exactlyonce;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * The reasons the stochastic Strategies 4-6 differ from App. B, as a model one can compute without
 * the cores: App. B's model with the one repair each reason names, drawn by Monte Carlo. If the
 * cores' stochastic ratio agrees with this prediction, the stated reason accounts for the gap; if it
 * agrees with neither App. B nor this, the claim FAILs.
 *
 * <p>The repairs: the gather ends when the slowest server it pulls from has answered (footnote 7:
 * App. B uses the mean round trip to the farthest server); Strategy 5 pulls from every server whose
 * first periodic sync after the previous connection has not reached B by the connect (App. B
 * considers A's alone); a connection keeps what is left of T_c after its own setup,
 * E[max(0, T_c - setup)] (App. B deducts the mean setup). Delivery proceeds at Strategy 0's rate
 * once the gather ends, so the ratio is E[max(0, T_c - setup)] / T_c.
 */
final class SetupModel {

    private SetupModel() {
    }

    /** The predicted p_i/p_0 of gather Strategy {@code strategy} at {@code p}, over {@code draws} connections. */
    static double ratio(int strategy, Params p, long seed, int draws) {
        if (strategy < 4 || strategy > 6) {
            throw new IllegalArgumentException("the setup model is for Strategies 4-6, not " + strategy);
        }
        UniformRandomProvider rng = CoreSimulator.stream(seed, 0);
        Circle circle = Circle.stochastic(p, rng);
        double left = 0;
        for (int k = 0; k < draws; k++) {
            left += Math.max(0, p.Tc() - setup(strategy, p, circle, rng));
        }
        return p.Tc() == 0 ? 0 : left / draws / p.Tc();
    }

    /** One connection's gather time at B (server 0). */
    private static double setup(int strategy, Params p, Circle circle, UniformRandomProvider rng) {
        double slowest = 0;
        if (strategy == 6) {
            // A, d' hops from B, pushed its sync when the previous connection ended, t' before this one.
            boolean stale = p.dPrime() > 0 && circle.fixed(p.dPrime()) > p.tPrime();
            return stale ? circle.fixed(p.dPrime()) + circle.fixed(p.dPrime()) : 0;
        }
        for (int j = 1; j < p.N(); j++) {
            double hops = circle.serverHops(0, j);
            boolean stale = true;
            if (strategy == 5) {
                // j's first periodic sync after the previous connection ended (at 0): sent at a phase
                // uniform over T_u, fresh if it reached B by the connect at T_r.
                double sent = rng.nextDouble() * p.Tu();
                stale = sent + circle.fixed(hops) > p.Tr();
            }
            if (stale) {
                slowest = Math.max(slowest, circle.fixed(hops) + circle.fixed(hops));
            }
        }
        return slowest;
    }
}
