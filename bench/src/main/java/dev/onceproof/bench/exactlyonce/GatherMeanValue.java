package dev.onceproof.bench.exactlyonce;

/**
 * The mean-value mode of Strategies 4-6 (notes Z23): every delay at its expectation, notes counted
 * as App. B counts them, {@code (T_c - E[setup]) x} the steady delivery rate, clamped at 0 (Z25).
 * Both the setup and the rate are measured on {@link GatherRig}, with the real cores deciding.
 *
 * <p>Strategy 4's setup is deterministic (the gather from every server). For Strategies 5 and 6 the
 * analysis keeps ONE random quantity, the delay of the sync from A (the previous connection's
 * server) to B, and for S5 the phase of A's first periodic sync (uniform over T_u); the setup is a
 * pull from A or none, depending on whether that sync reached B before the connect. Holding that
 * delay at its expectation would turn App. B's smooth p_s into a step, so this mode takes the
 * expectation over it: it finds by bisection, running the cores, the delay x* at which B's core
 * stops pulling from A (for S5 at each of {@link #PHASES} phases, midpoint rule), weights the two
 * setups the cores measured (sync in time, sync late) with {@code f_d(x*)} of section 4 (the delay
 * distribution the stochastic mode samples), and deducts the mean. The rest of the network stays at
 * its expectations, and S5's servers other than A sync once right after the previous connection
 * ended (App. B considers only A and only its first sync).
 */
final class GatherMeanValue {

    /** Phases of A's first periodic sync over [0, T_u) (S5). */
    static final int PHASES = 32;
    /** Bisection steps for the flip delay (resolution T_r / 2^20, well under a clock tick's effect). */
    static final int STEPS = 20;
    /** Notes over which the steady rate is measured after two warm-up notes. */
    private static final int MEASURED = 12;

    private GatherMeanValue() {
    }

    static double count(int strategy, Params p) {
        double rate = rate(strategy, p);
        double setup = switch (strategy) {
            case 4 -> setup(run(strategy, p, Double.NaN, 0, 1));
            case 5 -> expectedSetup5(p);
            default -> expectedSetup6(p);
        };
        return Math.max(0, p.Tc() - setup) * rate;
    }

    /** Notes per second once delivery runs, from the processing times of a long enough run. */
    private static double rate(int strategy, Params p) {
        int from = 2;
        int to = from + MEASURED;
        GatherRig r = run(strategy, p, 0, 0, to + 1);
        if (r.processed.size() <= to) {
            throw new IllegalStateException("S" + strategy + " processed only " + r.processed.size() + " notes at "
                    + EoReport.describe(p) + "; the run stalled");
        }
        return (to - from) / (r.processed.get(to) - r.processed.get(from));
    }

    /** One mean-value run with A's sync to B delayed {@code syncDelay} (NaN: expected) and S5's phase. */
    private static GatherRig run(int strategy, Params p, double syncDelay, double phase, int notes) {
        GatherRig r = new GatherRig(strategy, p, Circle.meanValue(p), notes + 1, GatherRig.Mode.FIRST_SYNC_ONLY, null)
                .forceSyncDelay(syncDelay).phase(phase);
        r.run(Double.MAX_VALUE, notes);
        return r;
    }

    private static double setup(GatherRig r) {
        if (Double.isNaN(r.setupEnd)) {
            throw new IllegalStateException("the gather never ended");
        }
        return r.setupEnd - r.t0;
    }

    /** Whether B's core pulled from A with A's sync delayed {@code x} (and sent at {@code phase}). */
    private static boolean pulls(int strategy, Params p, double x, double phase) {
        GatherRig r = run(strategy, p, x, phase, 1);
        return r.pulled().contains(r.a);
    }

    /**
     * The largest delay of A's sync with which B's core does not pull, by bisection on [0, hi];
     * NaN when it pulls even at delay 0 (the sync is not sent, or not in time, at any delay).
     */
    private static double flip(int strategy, Params p, double phase, double hi) {
        if (pulls(strategy, p, 0, phase)) {
            return Double.NaN;
        }
        double lo = 0;
        if (!pulls(strategy, p, hi, phase)) {
            return hi;
        }
        for (int i = 0; i < STEPS; i++) {
            double mid = (lo + hi) / 2;
            if (pulls(strategy, p, mid, phase)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return lo;
    }

    /** E[setup] = P(pull) S_pull + (1 - P(pull)) S_none, with S measured on the cores. */
    private static double mix(int strategy, Params p, double pPull) {
        double late = setup(run(strategy, p, 1e15, 0, 1));
        double inTime = pPull >= 1 ? late : setup(run(strategy, p, 0, 0, 1));
        return pPull * late + (1 - pPull) * inTime;
    }

    /** Strategy 6: A's push sync, sent a tick after the previous connection ended, d' hops from B. */
    static double expectedSetup6(Params p) {
        if (p.N() < 2) {
            return setup(run(6, p, Double.NaN, 0, 1));
        }
        double x = flip(6, p, 0, p.tPrime() + 1);
        double pPull = Double.isNaN(x) ? 1 : 1 - ClosedForms.f(p, p.dPrime(), x);
        return mix(6, p, pPull);
    }

    /** Midpoints of the fine quadrature over the phase once the cores' deadline is known (S5). */
    static final int FINE = 8192;

    /**
     * Strategy 5: A's first periodic sync at a phase uniform over [0, T_u), d_AB hops from B. At each
     * of {@link #PHASES} phases the cores give the flip delay x*; when phase + x* is the same deadline
     * at every phase (the sync must arrive by then, whenever it was sent; a phase with no flip must lie
     * past it), P(pull) is integrated over the phase with {@link #FINE} midpoints against f_d, since the
     * integrand changes within a few beta d_AB seconds and the coarse grid alone is off by up to 20% where
     * p_5 is near 0 (Fig. 8, D = 70). Otherwise the coarse midpoint rule is used as it is.
     */
    static double expectedSetup5(Params p) {
        double d = ClosedForms.farthest(p);
        double coarse = 0;
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        double lastFlip = Double.NEGATIVE_INFINITY;
        double firstNoFlip = Double.POSITIVE_INFINITY;
        for (int j = 0; j < PHASES; j++) {
            double phase = (j + 0.5) * p.Tu() / PHASES;
            double x = flip(5, p, phase, p.Tr() + 1);
            coarse += Double.isNaN(x) ? 1 : 1 - ClosedForms.f(p, d, x);
            if (Double.isNaN(x)) {
                firstNoFlip = Math.min(firstNoFlip, phase);
            } else {
                lo = Math.min(lo, phase + x);
                hi = Math.max(hi, phase + x);
                lastFlip = Math.max(lastFlip, phase);
            }
        }
        double resolution = 4 * (p.Tr() + 1) / (1 << STEPS) + 2 / Rig.TICKS;
        boolean oneDeadline = hi - lo <= resolution && lastFlip < firstNoFlip
                && (Double.isInfinite(lo) || firstNoFlip >= lo - resolution);
        if (!oneDeadline || Double.isInfinite(lo)) {
            return mix(5, p, coarse / PHASES);
        }
        double deadline = (lo + hi) / 2;
        double sum = 0;
        for (int j = 0; j < FINE; j++) {
            double phase = (j + 0.5) * p.Tu() / FINE;
            sum += phase >= deadline ? 1 : 1 - ClosedForms.f(p, d, deadline - phase);
        }
        return mix(5, p, sum / FINE);
    }
}
