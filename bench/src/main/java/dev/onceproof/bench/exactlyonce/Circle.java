package dev.onceproof.bench.exactlyonce;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterExponentialSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * The network of section 4: a circle of D hops with N servers evenly spaced (server i at i D/N),
 * the client at a NAP on the circle talking to the nearest server, a constant t_cap on the wireless
 * link, and fixed-network delays over d hops following f_d (a shifted exponential: at least
 * {@code alpha d}, then a tail of mean {@code beta d}).
 *
 * <p>Two modes. <b>Mean-value</b>: every delay is its expectation {@code E(d) = lambda d} and the
 * NAP sits at the mean distance {@code D/(4N)} from its server (App. B: E is linear, so this gives
 * t_cs exactly). <b>Stochastic</b>: the NAP is uniform on the circle and every message's delay is
 * drawn from f_d with the given random stream.
 */
final class Circle {

    private final Params p;
    private final UniformRandomProvider rng;
    private final ContinuousSampler unitExp;
    /** Hops from the NAP to its (nearest) server. */
    private final double napHops;

    private Circle(Params p, UniformRandomProvider rng, boolean napAtMean) {
        this.p = p;
        this.rng = rng;
        this.unitExp = rng == null ? null : AhrensDieterExponentialSampler.of(rng, 1.0);
        if (rng == null) {
            napHops = ClosedForms.dSap(p);
        } else {
            double spacing = (double) p.D() / p.N();
            double offset = rng.nextDouble() * spacing; // NAP position relative to the server before it
            napHops = napAtMean ? ClosedForms.dSap(p) : Math.min(offset, spacing - offset);
        }
    }

    static Circle meanValue(Params p) {
        return new Circle(p, null, true);
    }

    /** A stochastic circle; the first draw of {@code rng} places the NAP. */
    static Circle stochastic(Params p, UniformRandomProvider rng) {
        return new Circle(p, rng, false);
    }

    /**
     * A stochastic circle whose NAP sits at App. B's mean distance D/(4N) (the first draw is still
     * taken, so the rest of the stream is the same): a control that removes one cause of the gap
     * between the stochastic and the analytic ratio.
     */
    static Circle stochasticNapAtMean(Params p, UniformRandomProvider rng) {
        return new Circle(p, rng, true);
    }

    /** Hops between server i and server j along the shorter arc. */
    double serverHops(int i, int j) {
        int apart = Math.abs(i - j) % p.N();
        return (double) (p.D() / p.N()) * Math.min(apart, p.N() - apart);
    }

    double napHops() {
        return napHops;
    }

    /** One message over {@code hops} of the fixed network. */
    double fixed(double hops) {
        if (rng == null || hops == 0) {
            return ClosedForms.expectedDelay(p, hops);
        }
        return p.alpha() * hops + p.beta() * hops * unitExp.sample();
    }

    /** Whether a message is lost, with probability {@code rate} (never in mean-value mode). */
    boolean lose(double rate) {
        return rng != null && rate > 0 && rng.nextDouble() < rate;
    }

    /** One message between the client and its server: the NAP-server hops plus the wireless link. */
    double clientLink() {
        return p.tcap() + fixed(napHops);
    }
}
