package dev.onceproof.bench.adaptive;

/**
 * A workload: lifetimes over time and how often messages arrive.
 *
 * @param name       short id used in tables, JSON and file names
 * @param what       one line on what it exercises
 * @param ticks      length of the run
 * @param rate       arrivals per tick when {@code gap} is 1
 * @param gap        when above 1: one arrival every gap ticks (a sparse workload)
 * @param profile    lifetimes
 * @param boundFrom  from this time on the execution is (t, X)-bounded (or (t, X, S, H)-bounded for
 *                   the spikes profile); -1 when it is not meant to be
 * @param boundX     that X
 * @param dupProb    probability that an arrival is a duplicate of a recent message
 */
public record Scenario(String name, String what, long ticks, int rate, int gap, Profile profile,
        long boundFrom, long boundX, double dupProb) {

    public int arrivalsAt(long t) {
        return gap > 1 ? (t % gap == 0 ? 1 : 0) : rate;
    }

    /** Drives one contender through the whole scenario, sampling about 400 times. */
    public RunResult run(Contender contender, AdaptiveConfig cfg) {
        Driver d = new Driver(contender, cfg.clients(), cfg.gcPeriod(), cfg.seed() * 7919 + name.hashCode());
        Series series = new Series(contender.name());
        long every = Math.max(1, ticks / 400);
        long index = 0;
        for (long t = 0; t < ticks; t++) {
            if (t % every == 0) {
                series.sample(d);
            }
            for (int k = arrivalsAt(t); k > 0; k--) {
                long lifetime = profile.lifetime(t, index++, d.rng());
                if (dupProb > 0 && d.rng().nextDouble() < dupProb && d.arriveCopy(lifetime)) {
                    continue;
                }
                d.arrive(lifetime);
            }
            d.tick();
        }
        series.sample(d);
        return RunResult.of(contender, d, series);
    }
}
