package dev.onceproof.bench.exactlyonce;

/**
 * The expected throughputs p_0 ... p_6 of Appendix B (notes per connection of T_c seconds), each
 * citing its equation, with the repairs of the reading notes (sec. 4.4, X2, Z25).
 *
 * <p>Every p_i is returned as a {@link Throughput}: the formula's value as printed and the value
 * clamped at zero. The setup-deducting forms (p_4, p_5, p_6) go negative when the setup outlasts
 * the connection; the paper calls that throughput "practically zero" (L358), so the figures plot the
 * clamped value and the results keep the unclamped one, which shows where a formula leaves its range.
 */
public final class ClosedForms {

    private ClosedForms() {
    }

    /** p_i as printed ({@code unclamped}) and clamped at zero ({@code value}). */
    public record Throughput(double value, double unclamped) {
        static Throughput of(double unclamped) {
            return new Throughput(Math.max(0, unclamped), unclamped);
        }

        public boolean clamped() {
            return unclamped < 0;
        }
    }

    /** App. B: {@code E(d) = lambda d}, the mean of f_d (the antiderivative checks, notes 4.4 item 1). */
    public static double expectedDelay(Params p, double d) {
        return p.lambda() * d;
    }

    /**
     * Sec. 4, f_d(t): the probability that a message over d hops arrives within t. A shifted
     * exponential: nothing before {@code alpha d}, then a tail of mean {@code beta d}. Over zero hops a
     * message arrives at once ({@code f_0(t) = 1} for {@code t >= 0}), the limit of the formula.
     */
    public static double f(Params p, double d, double t) {
        double min = p.alpha() * d;
        if (t < min) {
            return 0;
        }
        double tail = p.beta() * d;
        return tail == 0 ? 1 : -Math.expm1(-(t - min) / tail);
    }

    /** App. B: {@code d_sap = D/(4N)}, the mean hops from a uniform NAP to its nearest server. */
    public static double dSap(Params p) {
        return p.D() / (4.0 * p.N());
    }

    /** App. B: {@code t_cs = lambda D/(4N) + t_cap}, one way between client and server. */
    public static double tcs(Params p) {
        return expectedDelay(p, dSap(p)) + p.tcap();
    }

    /** App. B: {@code d_AB = (D/N) floor(N/2)}, the farthest server (also Strategy 5's A-B distance). */
    public static double farthest(Params p) {
        return (double) (p.D() / p.N()) * (p.N() / 2);
    }

    /**
     * App. B: {@code t_ss = max_i E(d_i) = lambda (D/N) floor(N/2)}, the fan-out to the other servers
     * taken as the largest expectation (footnote 7: "an optimistic estimate").
     */
    public static double tss(Params p) {
        return expectedDelay(p, farthest(p));
    }

    /** App. B.1: {@code p_0 = T_c / (2 t_cs)}: delivery starts at once, one note per round trip. */
    public static Throughput p0(Params p) {
        return Throughput.of(p.Tc() / (2 * tcs(p)));
    }

    /** App. B.1 (L817-819): {@code p_1 = p_2 = p_0}; in-order delivery costs nothing here. */
    public static Throughput p1(Params p) {
        return p0(p);
    }

    /** App. B.1 (L817-819): {@code p_2 = p_0}. */
    public static Throughput p2(Params p) {
        return p0(p);
    }

    /**
     * App. B.1, Figure B-1: the number of R slots above which Strategy 3 never waits for a purge,
     * {@code 1 + t_ss/t_cs} (a slot is held for {@code 2t_cs + 2t_ss}, a note comes every {@code 2t_cs}).
     */
    public static double slotThreshold(Params p) {
        return 1 + tss(p) / tcs(p);
    }

    /**
     * App. B.1, p_3: {@code T_c/(2t_cs)} if {@code q > 1 + t_ss/t_cs}, else {@code T_c q / (2t_cs + 2t_ss)}.
     * The branches meet at the threshold, so {@code >} against {@code >=} does not matter.
     */
    public static Throughput p3(Params p) {
        if (p.q() > slotThreshold(p)) {
            return p0(p);
        }
        return Throughput.of(p.Tc() * p.q() / (2 * tcs(p) + 2 * tss(p)));
    }

    /** App. B.1, p_4 = (T_c - 2 t_ss) / (2 t_cs): the gather from every server is deducted. */
    public static Throughput p4(Params p) {
        return Throughput.of((p.Tc() - 2 * tss(p)) / (2 * tcs(p)));
    }

    /**
     * App. B.1, Strategy 5's p_s: the probability that A's first periodic sync after the window
     * opened has not reached B (A and B farthest apart, the sync uniform over T_u, the client back
     * exactly T_r after the previous connection):
     * {@code p_s = 1 - (1/T_u) int_0^M f_{d_AB}(T_r - t) dt}, {@code M = max(0, min(T_r - alpha d_AB, T_u))}.
     *
     * <p>The paper's closed form multiplies {@code e^{-(T_r - alpha d)/(beta d)}} by
     * {@code e^{M/(beta d)}} (its last line misprints that exponent, notes X2); the second factor
     * overflows a double for {@code M/(beta d) > 709} (e.g. T_r = 300 at D = 10) while the first
     * underflows. Written as one exponent, {@code -(T_r - alpha d - M)/(beta d) <= 0} since
     * {@code M <= T_r - alpha d}, so nothing overflows.
     */
    public static double ps5(Params p) {
        double d = farthest(p);
        double room = p.Tr() - p.alpha() * d;
        double m = Math.max(0, Math.min(room, p.Tu()));
        double tail = p.beta() * d;
        double integral = m;
        if (tail > 0 && m > 0) {
            // int_0^M e^{-(room - t)/tail} dt = tail (e^{-(room - M)/tail} - e^{-room/tail})
            integral -= tail * (Math.exp(-(room - m) / tail) - Math.exp(-room / tail));
        }
        return 1 - integral / p.Tu();
    }

    /**
     * App. B.1, p_5 = (T_c - p_s t_s)/(2t_cs) with {@code t_s ~ 2t_ss} (B's round trip to the farthest
     * server). The mean setup is deducted from T_c, as the paper does (notes 4.4 item 12).
     */
    public static Throughput p5(Params p) {
        return Throughput.of((p.Tc() - ps5(p) * 2 * tss(p)) / (2 * tcs(p)));
    }

    /**
     * App. B.1, Strategy 6's p_s = 1 - f_{d'}(t'): the sync A sent at the end of the previous
     * connection has not reached B, d' hops away, t' later. The paper's exponential form
     * {@code e^{-(t' - alpha d')/(beta d')}} holds only for {@code t' >= alpha d'}; before that the sync
     * cannot have arrived, so p_s = 1 (the form would give more than 1). At d' = 0, p_s = 0.
     */
    public static double ps6(Params p) {
        return 1 - f(p, p.dPrime(), p.tPrime());
    }

    /** App. B.1, p_6 = (T_c - (1 - f_{d'}(t')) 2E(d'))/(2t_cs): a round trip to A when needed. */
    public static Throughput p6(Params p) {
        return Throughput.of((p.Tc() - ps6(p) * 2 * expectedDelay(p, p.dPrime())) / (2 * tcs(p)));
    }

    /** p_i for strategy i in 0..6. */
    public static Throughput p(int strategy, Params p) {
        return switch (strategy) {
            case 0 -> p0(p);
            case 1 -> p1(p);
            case 2 -> p2(p);
            case 3 -> p3(p);
            case 4 -> p4(p);
            case 5 -> p5(p);
            case 6 -> p6(p);
            default -> throw new IllegalArgumentException("strategy " + strategy + " is not in 0..6");
        };
    }

    /** p_i / p_0 clamped ({@code value}) and unclamped; both NaN (no ratio) when p_0 = 0, i.e. T_c = 0. */
    public static Throughput ratio(int strategy, Params p) {
        Throughput pi = p(strategy, p);
        double p0 = p0(p).value();
        if (p0 == 0) {
            return new Throughput(Double.NaN, Double.NaN);
        }
        return new Throughput(pi.value() / p0, pi.unclamped() / p0);
    }
}
