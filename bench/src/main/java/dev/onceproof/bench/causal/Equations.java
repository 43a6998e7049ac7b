package dev.onceproof.bench.causal;

import java.util.function.DoubleUnaryOperator;

/**
 * The closed forms of Martori and Urso 2016 (Inria RR-8985), Eqs. 3-13 and Algorithm 1, with the
 * repairs of ../shared/notes/causal-reading.md applied and named where they apply. Eqs. 1-2 are
 * {@link LatencyModel}. The letter r is the global event rate (section 4) and is called
 * {@code rate} here; the time gap r of section 5.2 is called {@code rho}.
 */
public final class Equations {

    private Equations() {
    }

    /**
     * Eq. 3: P(F_k &lt;= t) = prod_{i &lt;= k} P(X_i &lt;= t + delta_i), the probability that the k-th
     * message of a node and all its earlier ones have reached another node t after the k-th was
     * issued. Exact when latencies are independent.
     *
     * @param deltas delta_i = issue time of the k-th minus issue time of the i-th event, each &gt;= 0
     */
    public static double fifoKth(LatencyModel model, double[] deltas, double t) {
        double prod = 1;
        for (int i = 0; i < deltas.length; i++) {
            Params.require("deltas[" + i + "]", deltas[i], deltas[i] >= 0, "must be >= 0");
            prod *= model.cdf(t + deltas[i]);
        }
        return prod;
    }

    /** What an event the issuing node has seen is, for Eq. 4. */
    public enum Seen { LOCAL, REMOTE, REMOTE_FROM_DESTINATION }

    /**
     * Eq. 4: P(C_k &lt;= t) = prod_{i &lt;= k} (P(X_i &lt;= t + delta_i) if i is local, else
     * P(R_i &lt;= t + delta_i)), exponential latency. P(R) = 1 when the destination issued the remote
     * event itself (paper, after Eq. 4). For a remote event delta_i is measured from the time it reached
     * the issuing node (notes Z4), the only reading under which R = X - Y.
     */
    public static double causalKth(double lambda, Seen[] kinds, double[] deltas, double t) {
        Params.require("kinds.length", kinds.length, kinds.length == deltas.length,
                "must equal deltas.length " + deltas.length);
        LatencyModel x = new LatencyModel.Exponential(lambda);
        double prod = 1;
        for (int i = 0; i < deltas.length; i++) {
            Params.require("deltas[" + i + "]", deltas[i], deltas[i] >= 0, "must be >= 0");
            prod *= switch (kinds[i]) {
                case LOCAL -> x.cdf(t + deltas[i]);
                case REMOTE -> remoteCdf(lambda, t + deltas[i]);
                case REMOTE_FROM_DESTINATION -> 1.0;
            };
        }
        return prod;
    }

    /**
     * Eq. 5: P(R &lt;= t) for R = X - Y, X and Y independent Exp(lambda): 1 - e^(-lambda t)/2. The
     * paper's form holds for t &gt;= 0 only; below 0 it is negative, so the Laplace lower half
     * e^(lambda t)/2 is used there (notes X4). Eqs. 4 and 8 only ask for t &gt;= 0.
     */
    public static double remoteCdf(double lambda, double t) {
        return t >= 0 ? 1 - Math.exp(-lambda * t) / 2 : Math.exp(lambda * t) / 2;
    }

    /**
     * Eq. 6, (n-1)-th root: t(p) = -ln(1 - p^(1/(n-1))) / lambda, the time by which one broadcast has
     * reached all n - 1 other nodes with probability p. The paper prints the n-th root, but its proof
     * (appendix) multiplies n - 1 CDFs and only the (n-1)-th root gives its example's 22.66 (notes X1).
     * For another latency model the same definition, F(t)^(n-1) = p, is solved numerically.
     */
    public static double visibilityTime(LatencyModel model, int n, double p) {
        Params.require("n", n, n >= 2, "must be >= 2 (a broadcast needs another node)");
        Params.require("p", p, p > 0 && p < 1, "must be in (0, 1)");
        return model.quantile(Math.pow(p, 1.0 / (n - 1)));
    }

    /** Eq. 6 as printed (n-th root), kept to show what the printed form gives (23.01, not 22.66). */
    public static double visibilityTimeAsPrinted(double lambda, int n, double p) {
        Params.require("n", n, n >= 1, "must be >= 1");
        Params.require("p", p, p > 0 && p < 1, "must be in (0, 1)");
        return -Math.log(1 - Math.pow(p, 1.0 / n)) / lambda;
    }

    /** Section 4.3: the window of events t(p) * r, r the global event rate. */
    public static double window(double visibilityTime, double rate) {
        Params.require("rate", rate, rate > 0 && Double.isFinite(rate), "must be finite and > 0");
        return visibilityTime * rate;
    }

    /**
     * Eq. 7: P(F &lt;= t) = prod_{i &lt; t(p) r / n} P(X_i &lt;= t + Delta_i), Delta_i = i n / r: one node's
     * events are n / r apart when r / n of them are issued per time unit (the paper's "n/r events per
     * node" is the gap, notes X9).
     */
    public static double fifoGeneral(LatencyModel model, int n, double rate, double visibilityTime, double t) {
        Params.require("n", n, n >= 2, "must be >= 2");
        double perNodeWindow = window(visibilityTime, rate) / n;
        double prod = 1;
        for (int i = 0; i < perNodeWindow; i++) {
            prod *= model.cdf(t + i * n / rate);
        }
        return prod;
    }

    /**
     * Eq. 8 as printed: P(C &lt;= t) = prod_{i &lt; t(p) r} (P(X_i &lt;= t + Delta_i) if i = 0 mod n, else
     * 1 - (1 - P(R_i &lt;= t + Delta_i)) P(D &lt;= Delta_i)), Delta_i = i / r (the negation bar over
     * P(R) P(D) is read as the prose says, notes X7). It treats dependencies as independent and uses P(D)
     * unconditionally, so it is an approximation (notes 4.4).
     *
     * @param bufferWait P(D &lt;= t) from {@link #bufferWaitCdf} (Algorithm 1)
     */
    public static double causalGeneral(double lambda, int n, double rate, double visibilityTime, double t,
            DoubleUnaryOperator bufferWait) {
        return causalGeneral(lambda, n, rate, visibilityTime, t, bufferWait, -1);
    }

    /**
     * Eq. 8 with the one correction the paper states after Eq. 4 and Eq. 8 forgets: a remote event
     * issued by the destination itself is there (P(R) = 1). With round-robin issue the destination is
     * one of the n - 1 other nodes, so the result is the mean over the n - 1 destinations (notes Z6).
     */
    public static double causalGeneralCorrected(double lambda, int n, double rate, double visibilityTime,
            double t, DoubleUnaryOperator bufferWait) {
        double sum = 0;
        for (int dest = 1; dest < n; dest++) {
            sum += causalGeneral(lambda, n, rate, visibilityTime, t, bufferWait, dest);
        }
        return sum / (n - 1);
    }

    /** Eq. 8; {@code dest} is the destination's offset from the issuer in the round robin, or -1. */
    private static double causalGeneral(double lambda, int n, double rate, double visibilityTime, double t,
            DoubleUnaryOperator bufferWait, int dest) {
        Params.require("n", n, n >= 2, "must be >= 2");
        LatencyModel x = new LatencyModel.Exponential(lambda);
        double w = window(visibilityTime, rate);
        double prod = 1;
        for (int i = 0; i < w; i++) {
            double delta = i / rate;
            if (i % n == 0) {
                prod *= x.cdf(t + delta);
            } else if (i % n != dest) {
                // The i-th event back was issued by node (issuer - i) mod n; with dest = that offset it is
                // the destination's own event and the factor is 1.
                prod *= 1 - (1 - remoteCdf(lambda, t + delta)) * bufferWait.applyAsDouble(delta);
            }
        }
        return prod;
    }

    /**
     * Algorithm 1, P(D &lt;= t): among remote (operation, node) cells, the share whose wait between
     * reception and delivery is at most t. Rows are operations, columns nodes; the origin's cell
     * (reception = delivery = issue) is the one per row that {@code - len} removes. The loops run over
     * exactly len rows and n columns (the printed "i &lt;= len" runs once too often, notes X8). Valid
     * for t &gt;= 0.
     */
    public static double bufferWait(double[][] delivery, double[][] reception, double t) {
        Params.require("t", t, t >= 0, "must be >= 0 (Algorithm 1 counts the origin's zero wait)");
        int len = delivery.length;
        Params.require("reception.length", reception.length, reception.length == len, "must equal " + len);
        int n = len == 0 ? 0 : delivery[0].length;
        Params.require("nodes", n, n >= 2, "must be >= 2");
        long count = 0;
        for (int i = 0; i < len; i++) {
            for (int j = 0; j < n; j++) {
                if (delivery[i][j] - reception[i][j] <= t) {
                    count++;
                }
            }
        }
        return (double) (count - len) / ((double) (n - 1) * len);
    }

    /**
     * Algorithm 1 for many t at once: the same share, from the sorted remote waits (one sort, then a
     * binary search per t). Cells with NaN (never delivered) are left out. Agrees with
     * {@link #bufferWait} wherever both are defined (EquationsTest).
     */
    public static DoubleUnaryOperator bufferWaitCdf(double[][] delivery, double[][] reception, int[] origin) {
        int cells = 0;
        double[] waits = new double[delivery.length * (delivery.length == 0 ? 0 : delivery[0].length)];
        for (int i = 0; i < delivery.length; i++) {
            for (int j = 0; j < delivery[i].length; j++) {
                double d = delivery[i][j] - reception[i][j];
                if (j != origin[i] && !Double.isNaN(d)) {
                    waits[cells++] = d;
                }
            }
        }
        double[] sorted = java.util.Arrays.copyOf(waits, cells);
        java.util.Arrays.sort(sorted);
        return t -> Ecdf.share(sorted, t);
    }

    /**
     * Eq. 9 with the direction of Eq. 10 (notes X5): a false positive needs B to depend on A (A
     * delivered at N1 within rho, probability {@code readyByRho}) and A to arrive at N3 after the request
     * and before the resend: B + rho + w &lt;= A &lt;= B + rho + w + C + D.
     */
    public static double falsePositive(double readyByRho, double lambda, double rho, double w) {
        Params.require("readyByRho", readyByRho, readyByRho >= 0 && readyByRho <= 1, "must be in [0, 1]");
        return readyByRho * betweenRequestAndResend(lambda, rho + w);
    }

    /** Eq. 10: P(B + s &lt;= A &lt;= B + s + C + D) = 3/8 e^(-lambda s), s = rho + w, all Exp(lambda). */
    public static double betweenRequestAndResend(double lambda, double s) {
        Params.require("rho + w", s, s >= 0, "must be >= 0");
        return 3.0 / 8 * Math.exp(-lambda * s);
    }

    /**
     * Eq. 11, for any lambda (the paper sets lambda = 1): f(w, rho) = 3/8 e^(-lambda (w + rho))
     * (1 - e^(-lambda rho)), Eq. 9 with N1 delivering on receipt (no order enforced at N1).
     */
    public static double falsePositiveSurface(double lambda, double w, double rho) {
        Params.require("w", w, w >= 0, "must be >= 0");
        Params.require("rho", rho, rho >= 0, "must be >= 0");
        return falsePositive(-Math.expm1(-lambda * rho), lambda, rho, w);
    }

    /**
     * Eq. 12, for any lambda: d f / d rho = -3/8 lambda (e^(lambda rho) - 2) e^(-lambda (2 rho + w)),
     * zero only at rho = ln 2 / lambda (the printed form lacks "=", notes X6).
     */
    public static double falsePositiveSlope(double lambda, double w, double rho) {
        return -3.0 / 8 * lambda * (Math.exp(lambda * rho) - 2) * Math.exp(-lambda * (2 * rho + w));
    }

    /** The root of Eq. 12: rho* = ln 2 / lambda. */
    public static double worstRho(double lambda) {
        return Math.log(2) / lambda;
    }

    /**
     * Eq. 11 at rho*: 3/32 e^(-lambda w), the paper's false-positive function. It is the worst case over
     * rho for one dependency in the three-node scenario of Fig. 1, not a rate of a whole system.
     */
    public static double maxFalsePositive(double lambda, double w) {
        Params.require("w", w, w >= 0, "must be >= 0");
        return 3.0 / 32 * Math.exp(-lambda * w);
    }

    /** The inverse of {@link #maxFalsePositive}: the w that keeps the worst case at {@code budget}. */
    public static double waitForBudget(double lambda, double budget) {
        Params.require("budget", budget, budget > 0 && budget < 3.0 / 32, "must be in (0, 3/32)");
        return Math.log(3.0 / (32 * budget)) / lambda;
    }

    /** How Eq. 13's RTTVAR is read (notes Z14). */
    public enum RtoReading {
        /** RTTVAR = sd(RTT): dimensionally a time; RFC 6298's variation term. The default. */
        STANDARD_DEVIATION,
        /** The paper's words: RTTVAR = Var(RTT), a time squared added to a time (changes with the unit). */
        VARIANCE_AS_PRINTED
    }

    /**
     * Eq. 13: RTO = SRTT + 4 RTTVAR, from the latency model (the paper's model is constant, so there is
     * no estimator): SRTT = E[RTT] = 2 E[X] for a request and its resend; Var(RTT) = 2 Var(X).
     */
    public static double rto(LatencyModel model, RtoReading reading) {
        double var = 2 * model.variance();
        if (!Double.isFinite(var)) {
            throw new IllegalArgumentException("latency model " + model.describe()
                    + " has infinite variance (Pareto alpha <= 2): Eq. 13 needs a finite RTTVAR");
        }
        double srtt = 2 * model.mean();
        return srtt + 4 * (reading == RtoReading.STANDARD_DEVIATION ? Math.sqrt(var) : var);
    }
}
