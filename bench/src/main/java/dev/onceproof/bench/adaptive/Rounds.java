package dev.onceproof.bench.adaptive;

import java.util.ArrayList;
import java.util.List;

/**
 * The two round-based experiments, both adversaries that watch the estimate:
 *
 * <ul>
 *   <li>{@link #history}: after each of n bursts of long lifetimes (which summary-reject many
 *       messages), how long does the estimate take to come back below 2X once lifetimes are short
 *       again? The unlimited horizon's p grows by one per decrease, so each decrease needs p times
 *       more accepted messages per summary-rejection (Section 1: "the longer the execution, the more
 *       reluctant the server is to reduce its estimate"); the limited horizon's p is fixed.
 *   <li>{@link #theorem11}: the construction in the proof of Theorem 11. Round i starts at t'_{i-1},
 *       when the estimate is below 2X; then, in the next garbage-collection period, messages with
 *       lifetime 2X arrive (and are lost), then one with lifetime X at t_i, after which the execution
 *       is (t_i, X)-bounded. We measure t' - t_i, round after round: the prefix grows with i.
 * </ul>
 */
public final class Rounds {

    /** Per round: ticks from the start of bounded traffic until the estimate is below 2X. */
    public record Result(String contender, long x, List<Long> convergence, long accepted, long lost,
            long violations, boolean capped) {
        public long round(int i) {
            return convergence.get(i - 1);
        }
    }

    private Rounds() {
    }

    public static Result history(Contender c, AdaptiveConfig cfg, int rounds) {
        final long x = 20;
        Driver d = new Driver(c, cfg.clients(), cfg.gcPeriod(), cfg.seed() * 31 + 1);
        Profile low = Profile.uniform(1, x);
        Profile burst = Profile.uniform(200, 400);
        long cap = 200_000;
        traffic(d, low, cfg.rate(), 500);
        boolean capped = untilBelow(d, low, cfg.rate(), 2 * x, cap) < 0;
        List<Long> reaction = new ArrayList<>();
        for (int i = 0; i < rounds && !capped; i++) {
            traffic(d, burst, cfg.rate(), 50);
            long took = untilBelow(d, low, cfg.rate(), 2 * x, cap);
            capped = took < 0;
            reaction.add(capped ? cap : took);
            traffic(d, low, cfg.rate(), 100);
        }
        return new Result(c.name(), x, reaction, d.accepted(), d.lost(), d.violations(), capped);
    }

    public static Result theorem11(Contender c, AdaptiveConfig cfg, int rounds) {
        final long x = 32;
        Driver d = new Driver(c, cfg.clients(), cfg.gcPeriod(), cfg.seed() * 31 + 2);
        Profile bounded = Profile.uniform(1, x);
        long cap = 200_000;
        traffic(d, bounded, cfg.rate(), 500);
        boolean capped = untilBelow(d, bounded, cfg.rate(), 2 * x, cap) < 0; // t'_0
        // One garbage-collection period: G ticks, or S messages for the limited horizon.
        long period = c.name().startsWith("limited")
                ? (cfg.s() + cfg.rate() - 1) / cfg.rate() : cfg.gcPeriod();
        List<Long> convergence = new ArrayList<>();
        for (int i = 0; i < rounds && !capped; i++) {
            traffic(d, Profile.uniform(2 * x, 2 * x), cfg.rate(), period); // lifetime 2X, lost
            d.arrive(x);                                                    // t_i
            long took = untilBelow(d, bounded, cfg.rate(), 2 * x, cap);     // t' - t_i
            capped = took < 0;
            convergence.add(capped ? cap : took);
        }
        return new Result(c.name(), x, convergence, d.accepted(), d.lost(), d.violations(), capped);
    }

    /** The silence variant of Theorem 11: same prefix, same state q_t, growing silence after t. */
    public record Silence(String contender, long x, List<Long> silences, List<Long> convergence,
            List<String> stateAtT) {
    }

    /**
     * The step of the proof of Theorem 11 that no bound can survive: "no messages arrive in the
     * interval [t_i, t_i + B(q_{t_i})]". For each silence the same seeded prefix (warm-up, one round
     * of the construction) leads to the same state at t; then nothing arrives for the silence, then
     * (t, X)-bounded traffic resumes. A standard-form estimate changes only at collections and moves
     * only on received lifetimes, so t' - t exceeds the silence: no function of q_t bounds it.
     */
    public static Silence theorem11Silence(Contender c, AdaptiveConfig cfg, List<Long> silences) {
        final long x = 32;
        List<Long> convergence = new ArrayList<>();
        List<String> states = new ArrayList<>();
        for (long silence : silences) {
            Driver d = new Driver(c, cfg.clients(), cfg.gcPeriod(), cfg.seed() * 31 + 3);
            Profile bounded = Profile.uniform(1, x);
            traffic(d, bounded, cfg.rate(), 500);
            untilBelow(d, bounded, cfg.rate(), 2 * x, 200_000);
            long period = c.name().startsWith("limited")
                    ? (cfg.s() + cfg.rate() - 1) / cfg.rate() : cfg.gcPeriod();
            traffic(d, Profile.uniform(2 * x, 2 * x), cfg.rate(), period);
            d.arrive(x);
            long t = d.now();
            states.add("estimate " + d.estimate() + ", accepted " + d.accepted() + ", lost " + d.lost());
            for (long i = 0; i < silence; i++) {
                d.tick();
            }
            long took = untilBelow(d, bounded, cfg.rate(), 2 * x, 200_000);
            convergence.add(took < 0 ? -1 : d.now() - t);
        }
        return new Silence(c.name(), x, silences, convergence, states);
    }

    private static void traffic(Driver d, Profile p, int rate, long ticks) {
        for (long t = 0; t < ticks; t++) {
            for (int k = 0; k < rate; k++) {
                d.arrive(p.lifetime(d.now(), 0, d.rng()));
            }
            d.tick();
        }
    }

    /** Runs traffic until the estimate is below {@code bound}; the ticks it took, or -1 at the cap. */
    private static long untilBelow(Driver d, Profile p, int rate, long bound, long cap) {
        long start = d.now();
        while (d.estimate() >= bound) {
            if (d.now() - start >= cap) {
                return -1;
            }
            traffic(d, p, rate, 1);
        }
        return d.now() - start;
    }
}
