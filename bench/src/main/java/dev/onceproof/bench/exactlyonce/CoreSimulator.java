package dev.onceproof.bench.exactlyonce;

import java.util.Optional;
import org.apache.commons.rng.JumpableUniformRandomProvider;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.commons.statistics.descriptive.DoubleStatistics;
import org.apache.commons.statistics.descriptive.Statistic;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The simulator of section 4's circle network running the real cores of Strategies 0-6
 * ({@link StreamRig}, {@link IdListRig}, {@link GatherRig}). Strategies 4-6's mean-value mode is
 * {@link GatherMeanValue}.
 *
 * <p><b>Mean-value mode</b> copies the analysis (notes Z23): delays are their expectations, the
 * NAP is at the mean distance, and notes are counted as App. B counts them, {@code T_c} times the
 * steady delivery rate (a ratio of expectations; the start-up transient, e.g. Strategy 3's first q
 * notes at full speed, is left out as the paper leaves it out). The rate is measured on the
 * simulated processing times over a whole number of q-note periods after a warm-up.
 *
 * <p><b>Stochastic mode</b> counts the notes the client really processes within T_c, with a random
 * NAP and every delay drawn from f_d. Connection k of a point uses the k-th jump of a
 * {@code XO_RO_SHI_RO_128_PP} stream seeded with the point's seed ({@link #stream}), for Strategy i
 * and for Strategy 0 alike, so the ratio's two sides see the same NAP (common random numbers). The ratio of means
 * gets a 95% interval from the ratio estimator's linearised variance and Student's t.
 */
public final class CoreSimulator implements Simulator {

    /**
     * Notes over which the mean-value rate is measured, at least; whole q-note periods for Strategy
     * 3 (in the hold regime its processings repeat every q notes, elsewhere every note), so the rate
     * is exact, not an average over a partial period.
     */
    private static final int MEASURED_NOTES = 20;
    static final int MAX_NOTES = 400;
    /**
     * Most notes a starved stochastic connection is re-run with. A stream server's durable state
     * (K and every delivered id) is copied at each step, so a run costs the square of its notes;
     * the cap keeps one re-run within a few seconds of CPU.
     */
    static final int MAX_EXTENDED_NOTES = 12_800;

    /** Threads of the stochastic mode (the machine of the issue has 2 cores). */
    static final int THREADS = 2;
    private static final java.util.concurrent.ForkJoinPool POOL = new java.util.concurrent.ForkJoinPool(THREADS);

    /** Runs {@code body(k)} for k in [0, n) on {@link #POOL}; an exception in one is rethrown. */
    static void parallel(int n, java.util.function.IntConsumer body) {
        try {
            POOL.submit(() -> java.util.stream.IntStream.range(0, n).parallel().forEach(body)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Stochastic connections simulated and the time each took, per strategy (the harness figure). */
    final Speed speed = new Speed();

    /** Whether the stochastic mode keeps the NAP at App. B's mean distance ({@link Circle#stochasticNapAtMean}). */
    private final boolean napAtMean;

    public CoreSimulator() {
        this(false);
    }

    /** A simulator whose stochastic mode puts every NAP at the mean distance (a control, not the figures). */
    CoreSimulator(boolean napAtMean) {
        this.napAtMean = napAtMean;
    }

    /** Simulated stochastic connections per second, per strategy, over everything this simulator ran. */
    static final class Speed {
        final long[] connections = new long[7];
        final long[] nanos = new long[7];

        synchronized void record(int strategy, long ns) {
            connections[strategy]++;
            nanos[strategy] += ns;
        }

        synchronized double perSecond(int strategy) {
            return nanos[strategy] == 0 ? Double.NaN : connections[strategy] / (nanos[strategy] / 1e9);
        }

        long total() {
            long n = 0;
            for (long c : connections) {
                n += c;
            }
            return n;
        }

        double seconds() {
            long n = 0;
            for (long c : nanos) {
                n += c;
            }
            return n / 1e9;
        }
    }

    /** Why Strategy 0, every ratio's denominator, cannot run on these cores, or null. */
    private final String baselineBroken = probeBaseline();

    @Override
    public Optional<String> missing(int strategy) {
        if (strategy < 0 || strategy > 6) {
            return Optional.of("no Strategy " + strategy);
        }
        return Optional.ofNullable(baselineBroken);
    }

    /**
     * Why Strategy {@code strategy}'s cores refuse the parameters of {@code p}, or empty. The S5 core
     * requires {@code T_u + T_e < T_r - 2 skew - T_e} (its rule R3: otherwise no connect could use the
     * timestamps and every connect pulls), which App. B does not (its derivation "is valid for
     * T_r <= T_u as well", L869); such points are not simulated, and say why.
     */
    @Override
    public Optional<String> missingAt(int strategy, Params p) {
        Optional<String> m = missing(strategy);
        if (m.isPresent() || strategy < 4) {
            return m;
        }
        try {
            new GatherRig(strategy, p, Circle.meanValue(p), 1, GatherRig.Mode.FIRST_SYNC_ONLY, null);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of("the S" + strategy + " core refuses these parameters: " + e.getMessage());
        }
    }

    /**
     * Runs Strategy 0 for a few notes. Its cores must agree on note ids; when they do not (an early
     * S0Server named notes with global ids while S0Client accepted only sequenced ones), p_0 cannot
     * be simulated and no simulated ratio can be formed; the reason is reported, not worked around.
     */
    private static String probeBaseline() {
        try {
            rig(0, Params.base(), Circle.meanValue(Params.base()), 4).run(Double.MAX_VALUE, 3);
            return null;
        } catch (dev.onceproof.exactlyonce.InvalidMessageException e) {
            return "Strategy 0's cores refuse each other's messages (" + e.getMessage() + "), so p_0, the denominator"
                    + " of every simulated ratio, cannot be simulated";
        }
    }

    /** A rig for one connection; Strategy 3's holds {@code notes} notes from the start. */
    static Rig rig(int strategy, Params p, Circle circle, int notes) {
        return rig(strategy, p, circle, notes, null);
    }

    /** A rig; {@code rng} (the circle's stream, or null in mean-value mode) draws S5's sync phases. */
    static Rig rig(int strategy, Params p, Circle circle, int notes, UniformRandomProvider rng) {
        if (strategy >= 4) {
            return new GatherRig(strategy, p, circle, notes, GatherRig.Mode.FULL, rng);
        }
        return strategy == 3 ? new IdListRig(p, circle, notes) : new StreamRig(strategy, p, circle, notes);
    }

    /**
     * Notes a stochastic connection is given first: three times the mean-value count plus q and a
     * margin, at most {@link #MAX_NOTES}. A connection that uses them all up is re-run with more
     * ({@link #stochasticCount}) and counted in {@link Simulated.Estimate#extended()}: with t_cap = 0
     * a NAP next to its server has next to no delay, the count per connection has a heavy tail, and
     * E[T_c / round trip] is unbounded.
     */
    static int stochasticNotes(Params p) {
        return (int) Math.min(MAX_NOTES, Math.ceil(3 * ClosedForms.p0(p).value()) + p.q() + 10);
    }

    @Override
    public double meanValue(int strategy, Params p) {
        require(strategy);
        if (p.Tc() == 0) {
            return 0;
        }
        if (strategy >= 4) {
            return GatherMeanValue.count(strategy, p);
        }
        int period = strategy == 3 ? p.q() : 1;
        int periods = Math.max(4, (MEASURED_NOTES + period - 1) / period);
        int from = 2 * period;
        int to = from + periods * period;
        Rig rig = rig(strategy, p, Circle.meanValue(p), to + 10);
        rig.run(Double.MAX_VALUE, to + 1);
        if (rig.processed.size() <= to) {
            throw new IllegalStateException("S" + strategy + " processed only " + rig.processed.size() + " notes at "
                    + EoReport.describe(p) + "; the run stalled");
        }
        double rate = (to - from) / (rig.processed.get(to) - rig.processed.get(from));
        return rate * p.Tc();
    }

    @Override
    public Simulated.Estimate stochasticRatio(int strategy, Params p, long seed, int connections) {
        require(strategy);
        if (connections < 2) {
            throw new IllegalArgumentException("a 95% interval needs at least 2 connections, got " + connections);
        }
        double[] x = new double[connections];
        double[] y = new double[connections];
        boolean[] starvedAt = new boolean[connections];
        boolean[] extendedAt = new boolean[connections];
        // Connections are independent (each its own stream and rig): run them on THREADS threads and
        // gather by index, so the numbers do not depend on the schedule.
        parallel(connections, k -> {
            long t = System.nanoTime();
            Rig ri = extended(strategy, p, seed, k, 0, Double.POSITIVE_INFINITY, false, napAtMean);
            long t1 = System.nanoTime();
            Rig r0 = strategy == 0 ? ri : extended(0, p, seed, k, 0, Double.POSITIVE_INFINITY, false, napAtMean);
            speed.record(strategy, t1 - t);
            if (strategy != 0) {
                speed.record(0, System.nanoTime() - t1);
            }
            x[k] = ri.processed.size();
            y[k] = r0.processed.size();
            starvedAt[k] = ri.starved || r0.starved;
            extendedAt[k] = ri.reruns > 0 || r0.reruns > 0;
        });
        long starved = 0;
        long extended = 0;
        for (int k = 0; k < connections; k++) {
            starved += starvedAt[k] ? 1 : 0;
            extended += extendedAt[k] ? 1 : 0;
        }
        Simulated.Estimate e = ratio(x, y);
        return new Simulated.Estimate(e.mean(), e.lo(), e.hi(), e.connections(), starved, extended);
    }

    /** Strategies whose rigs model a lossy wireless link and Deliver timeouts ({@link Rig#lossy}). */
    static final int[] LOSSY_STRATEGIES = {0, 1, 2};

    /**
     * Connection {@code k} of the point on a wireless link that loses each Deliver and acknowledgement
     * with probability {@code loss}; a server times a Deliver out after {@code timeout} seconds.
     */
    static Rig lossyCount(int strategy, Params p, long seed, int k, double loss, double timeout) {
        return extended(strategy, p, seed, k, loss, timeout, false, false);
    }

    /**
     * One stochastic connection of T_c seconds (connection {@code k} of the point seeded {@code seed}).
     * A connection that uses up the notes it was given is run again from the start on the same random
     * stream with four times as many, up to {@link #MAX_EXTENDED_NOTES}: the rigs consume the stream in
     * the same order until they run out of notes, so the re-run is the same connection, continued.
     * ({@link Rig#reruns} counts the re-runs; {@link Rig#starved} stays set only at the cap.)
     */
    static Rig stochasticCount(int strategy, Params p, long seed, int k) {
        return extended(strategy, p, seed, k, 0, Double.POSITIVE_INFINITY, false, false);
    }

    /** {@link #stochasticCount} with the bytes on the wire counted ({@link Costs#bytes}). */
    static Rig stochasticCountWithBytes(int strategy, Params p, long seed, int k) {
        return extended(strategy, p, seed, k, 0, Double.POSITIVE_INFINITY, true, false);
    }

    private static Rig extended(int strategy, Params p, long seed, int k, double loss, double timeout,
            boolean bytes, boolean napAtMean) {
        int notes = stochasticNotes(p);
        Rig rig = stochasticOnce(strategy, p, seed, k, notes, loss, timeout, bytes, napAtMean);
        int reruns = 0;
        while (rig.starved && notes < MAX_EXTENDED_NOTES) {
            notes = (int) Math.min(MAX_EXTENDED_NOTES, 4L * notes);
            rig = stochasticOnce(strategy, p, seed, k, notes, loss, timeout, bytes, napAtMean);
            reruns++;
        }
        rig.reruns = reruns;
        return rig;
    }

    private static Rig stochasticOnce(int strategy, Params p, long seed, int k, int notes, double loss,
            double timeout, boolean bytes, boolean napAtMean) {
        UniformRandomProvider rng = stream(seed, k);
        Circle circle = napAtMean ? Circle.stochasticNapAtMean(p, rng) : Circle.stochastic(p, rng);
        Rig rig = rig(strategy, p, circle, notes, rng);
        rig.costs.measureBytes = bytes;
        if (loss > 0 || Double.isFinite(timeout)) {
            rig.lossy(loss, timeout);
        }
        rig.run(rig.end(), Integer.MAX_VALUE);
        return rig;
    }

    /**
     * Connection k's random stream: a {@code XO_RO_SHI_RO_128_PP} seeded with {@code seed} (the
     * library expands a long seed with SplitMix64), jumped k times, so streams never overlap and any
     * connection can be rebuilt on its own. (Seeding with the array {@code {seed, k}} was tried first:
     * the library takes an array of the state's size as the state itself, and such a sparse state
     * gives near-zero first draws, which put every NAP on its server.)
     */
    static UniformRandomProvider stream(long seed, int k) {
        JumpableUniformRandomProvider rng = (JumpableUniformRandomProvider) RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        for (int j = 0; j < k; j++) {
            rng.jump();
        }
        return rng;
    }

    /**
     * Sum(x)/Sum(y) with a 95% interval: the linearised variance of a ratio of means,
     * {@code Var(x - R y) / (n mean(y)^2)}, and the t quantile with n - 1 degrees of freedom.
     */
    static Simulated.Estimate ratio(double[] x, double[] y) {
        int n = x.length;
        double meanY = DoubleStatistics.of(java.util.EnumSet.of(Statistic.MEAN), y).getAsDouble(Statistic.MEAN);
        double meanX = DoubleStatistics.of(java.util.EnumSet.of(Statistic.MEAN), x).getAsDouble(Statistic.MEAN);
        if (meanY == 0) {
            return new Simulated.Estimate(Double.NaN, Double.NaN, Double.NaN, n, 0, 0);
        }
        double r = meanX / meanY;
        double[] e = new double[n];
        for (int k = 0; k < n; k++) {
            e[k] = x[k] - r * y[k];
        }
        double var = DoubleStatistics.of(java.util.EnumSet.of(Statistic.VARIANCE), e).getAsDouble(Statistic.VARIANCE);
        double half = TDistribution.of(n - 1).inverseCumulativeProbability(0.975) * Math.sqrt(var / n) / meanY;
        return new Simulated.Estimate(r, r - half, r + half, n, 0, 0);
    }

    private void require(int strategy) {
        missing(strategy).ifPresent(why -> {
            throw new UnsupportedOperationException(why);
        });
    }
}
