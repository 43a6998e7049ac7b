package dev.onceproof.bench.adaptive;

import java.util.List;

/** The workloads of the experiment; durations scale with {@link AdaptiveConfig#length()}. */
public final class Scenarios {

    /** X after the last step, in the spikes base and in the sparse workload. */
    public static final long X = 50;

    private Scenarios() {
    }

    public static List<Scenario> all(AdaptiveConfig cfg) {
        return List.of(steps(cfg), spikes(cfg), dayNight(cfg), sparse(cfg));
    }

    /**
     * Step up at 1/20 of the run (X 50 -> 400), back down at 1/10: (t, 50)-bounded from there on.
     * The steady phase before the step is short on purpose: Fig. 2 increments p at every collection
     * whose maximum lifetime is below the estimate even when the rounded estimate does not change
     * (see UnlimitedHorizonEstimator), so a long steady phase makes the unlimited horizon need
     * p times the lost count in accepted messages before it may come down (the history experiment
     * measures exactly that).
     */
    public static Scenario steps(AdaptiveConfig cfg) {
        long ticks = cfg.ticks(20_000, 4_000);
        long up = ticks / 20;
        long down = ticks / 10;
        Profile p = Profile.step(down,
                Profile.step(up, Profile.uniform(1, X), Profile.uniform(1, 400)),
                Profile.uniform(1, X));
        return new Scenario("steps", "lifetimes 1..50, step up to 1..400 at " + up + ", back down at " + down,
                ticks, cfg.rate(), 1, p, down, X, cfg.dupProb());
    }

    /** H arrivals in every S with lifetime 1000, the rest 1..50: (0, 50, S, H)-bounded. */
    public static Scenario spikes(AdaptiveConfig cfg) {
        long ticks = cfg.ticks(12_000, 3_000);
        return new Scenario("spikes", "lifetimes 1..50 with " + cfg.h() + " of every " + cfg.s()
                + " arrivals at 1000 (transient spikes)", ticks, cfg.rate(), 1,
                Profile.spikes(cfg.s(), cfg.h(), 1000, Profile.uniform(1, X)), 0, X, cfg.dupProb());
    }

    /** X swings between 20 (night) and 300 (day), period 10000 ticks. */
    public static Scenario dayNight(AdaptiveConfig cfg) {
        long period = 10_000;
        long ticks = cfg.ticks(4 * period, period);
        return new Scenario("day-night", "lifetimes 1..X(t), X between 20 and 300, period " + period,
                ticks, cfg.rate(), 1, Profile.dayNight(20, 300, period), -1, 300, cfg.dupProb());
    }

    /**
     * One arrival every 4 ticks, lifetimes 1..50: a collection period (G = 16) sees about four
     * lifetimes, so the maximum often falls below 32 and the unlimited horizon keeps lowering and
     * raising its estimate, the case "ltime-est changes infinitely often" of Theorem 6, where only
     * p's growth drives L/A to 0.
     */
    public static Scenario sparse(AdaptiveConfig cfg) {
        long ticks = cfg.ticks(400_000, 60_000);
        return new Scenario("sparse", "one arrival every 4 ticks, lifetimes 1..50 (estimate oscillates)",
                ticks, 1, 4, Profile.uniform(1, X), 0, X, cfg.dupProb());
    }
}
