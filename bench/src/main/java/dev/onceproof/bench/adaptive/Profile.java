package dev.onceproof.bench.adaptive;

import java.util.SplittableRandom;

/**
 * Message lifetimes over time: the lifetime of the index-th arrival, at server time t. Lifetimes are
 * at least 1 (Assumption 5). Deterministic given the random source.
 */
@FunctionalInterface
public interface Profile {

    long lifetime(long t, long index, SplittableRandom rng);

    /** Uniform in lo..hi. */
    static Profile uniform(long lo, long hi) {
        return (t, i, rng) -> lo + rng.nextLong(hi - lo + 1);
    }

    /** {@code before} until time {@code at}, {@code after} from then on: a step change. */
    static Profile step(long at, Profile before, Profile after) {
        return (t, i, rng) -> t < at ? before.lifetime(t, i, rng) : after.lifetime(t, i, rng);
    }

    /**
     * A day-night cycle: lifetimes uniform in 1..X(t), where X(t) swings sinusoidally between
     * {@code night} and {@code day} with the given period (Section 1: "days may be relatively busy
     * and nights relatively idle").
     */
    static Profile dayNight(long night, long day, long period) {
        return (t, i, rng) -> {
            double phase = 0.5 - 0.5 * Math.cos(2 * Math.PI * (t % period) / period);
            long x = night + Math.round((day - night) * phase);
            return 1 + rng.nextLong(x);
        };
    }

    /**
     * Transient spikes: the arrivals whose index is below H modulo S have lifetime {@code spike},
     * the rest follow {@code base}. Every S consecutive arrivals then hold exactly H spikes, so
     * with base bounded by X the execution is (0, X, S, H)-bounded (Section 2).
     */
    static Profile spikes(int s, int h, long spike, Profile base) {
        return (t, i, rng) -> i % s < h ? spike : base.lifetime(t, i, rng);
    }
}
