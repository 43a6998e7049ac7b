package dev.onceproof.bench.adaptive;

import java.util.List;

/**
 * Parameters of the adaptive-lifetime experiment. Times are server clock ticks (the paper's unit,
 * Section 2: one tick of a correct clock is one unit).
 *
 * @param seed     every random choice derives from it: same seed, same numbers
 * @param clients  initial client pool (more join when needed)
 * @param gcPeriod G: ticks between collections for the time-driven estimators (Section 3.2)
 * @param rate     arrivals per tick in the busy scenarios (R of Assumption 2)
 * @param s        limited horizon S
 * @param h        limited horizon H
 * @param p        limited horizon p (delta = 1/p)
 * @param fixedRho the constant of the fixed-rho baseline (Liskov et al.)
 * @param dupProb  probability that an arrival is a network duplicate of a recent message
 * @param length   1.0 for the documented run; smaller for a quick check (tests)
 */
public record AdaptiveConfig(long seed, int clients, long gcPeriod, int rate, int s, int h, long p,
        long fixedRho, double dupProb, double length) {

    public static AdaptiveConfig defaults() {
        return new AdaptiveConfig(1, 2000, 16, 4, 64, 2, 8, 256, 0.02, 1.0);
    }

    public AdaptiveConfig withLength(double newLength) {
        return new AdaptiveConfig(seed, clients, gcPeriod, rate, s, h, p, fixedRho, dupProb, newLength);
    }

    public AdaptiveConfig withSeed(long newSeed) {
        return new AdaptiveConfig(newSeed, clients, gcPeriod, rate, s, h, p, fixedRho, dupProb, length);
    }

    /** Scales a duration by {@link #length}, never below {@code min}. */
    public long ticks(long full, long min) {
        return Math.max(min, Math.round(full * length));
    }

    /**
     * The estimators the paper compares: Figs. 2 and 3, Liskov et al.'s constant rho, and Fig. 2 read
     * literally (last, so the positions the checks read stay those of the first three).
     */
    public List<Contender> contenders() {
        return List.of(Contender.unlimited(), Contender.limited(s, h, p), Contender.fixed(fixedRho),
                Contender.unlimitedLiteral());
    }
}
