package dev.onceproof.bench.exactlyonce;

import java.util.List;
import java.util.stream.DoubleStream;

/**
 * Figures 4-8 of section 5 as sweeps over Table 1's base point. Only the swept parameter, the axis
 * and (partly) the curves are in the paper's text; the curve values and x ranges it does not give
 * are ours (notes Z26) and each figure says which in {@link Figure#ours()}.
 */
public final class Figures {

    private Figures() {
    }

    /** One curve: a strategy at the base point with some parameters changed. */
    public record Curve(String label, int strategy, String set) {
        public Params params(Params base) {
            return set.isEmpty() ? base : base.withAll(set);
        }
    }

    /**
     * One figure.
     *
     * @param id     file stem and JSON key
     * @param title  the paper's caption
     * @param x      the swept Table 1 parameter
     * @param xs     the sweep
     * @param curves the curves
     * @param paper  what the paper's text says of the curves and the range
     * @param ours   the values we chose where the paper gives none
     */
    public record Figure(String id, String title, String x, double[] xs, List<Curve> curves, String paper,
            String ours) {
    }

    public static List<Figure> all() {
        return List.of(figure4(), figure5(), figure6(), figure7(), figure8());
    }

    /** Figure 4: p_3/p_0 against q, one curve per t_cap (1 s leftmost, 0 rightmost, L338-345). */
    static Figure figure4() {
        return new Figure("figure4", "Figure 4: p3/p0 versus q", "q", range(1, 40, 1), List.of(
                new Curve("S3 t_cap=1", 3, "tcap=1"),
                new Curve("S3 t_cap=0.2", 3, "tcap=0.2"),
                new Curve("S3 t_cap=0", 3, "tcap=0")),
                "three t_cap curves: 1 s (leftmost), 0 (rightmost); 'about 12 slots' at t_cap = 0.2 (L343)",
                "middle curve t_cap = 0.2 (inferred from L343); q from 1 to 40");
    }

    /** Figure 5: p_4/p_0 against T_c over 0-50 s, one curve per D (values not in the text). */
    static Figure figure5() {
        return new Figure("figure5", "Figure 5: p4/p0 versus Tc", "Tc", range(0.5, 50, 0.5), List.of(
                new Curve("S4 D=10", 4, "D=10"),
                new Curve("S4 D=30", 4, "D=30"),
                new Curve("S4 D=60", 4, "D=60")),
                "T_c from 0 to 50 s (L386); three D values",
                "D = 10, 30 (base), 60");
    }

    /** Figure 6: p_5/p_0 against T_r; middle three share beta = 0.25, outer two and middle alpha = 0.05. */
    static Figure figure6() {
        return new Figure("figure6", "Figure 6: p5/p0 versus Tr", "Tr", range(0, 600, 10), List.of(
                new Curve("S5 alpha=0.05 beta=0.1", 5, "alpha=0.05,beta=0.1"),
                new Curve("S5 alpha=0.01 beta=0.25", 5, "alpha=0.01,beta=0.25"),
                new Curve("S5 alpha=0.05 beta=0.25", 5, "alpha=0.05,beta=0.25"),
                new Curve("S5 alpha=0.1 beta=0.25", 5, "alpha=0.1,beta=0.25"),
                new Curve("S5 alpha=0.05 beta=0.5", 5, "alpha=0.05,beta=0.5")),
                "five curves: the middle three share beta = 0.25 with different alpha, the outer two and the middle"
                        + " one share alpha = 0.05 with different beta; T_u = 300",
                "alpha in {0.01, 0.05, 0.1}, beta in {0.1, 0.25, 0.5}; T_r from 0 to 600 s");
    }

    /** Figure 7: p_6/p_0 against T_c over 0-5 s, one curve per d' (the text cites 0 and 10). */
    static Figure figure7() {
        return new Figure("figure7", "Figure 7: p6/p0 versus Tc", "Tc", range(0.1, 5, 0.1), List.of(
                new Curve("S6 d'=0", 6, "dprime=0"),
                new Curve("S6 d'=5", 6, "dprime=5"),
                new Curve("S6 d'=10", 6, "dprime=10"),
                new Curve("S6 d'=15", 6, "dprime=15")),
                "T_c from 0 to 5 s (L386); d' = 0 gives 1, d' = 10 is the base",
                "d' = 5 and 15 besides 0 and 10");
    }

    /** Figure 8: p_3/p_0 (three q) and p_5/p_0 (three T_r) against D. */
    static Figure figure8() {
        return new Figure("figure8", "Figure 8: p5/p0 and p3/p0 versus D", "D", range(10, 150, 10), List.of(
                new Curve("S3 q=1", 3, "q=1"),
                new Curve("S3 q=5", 3, "q=5"),
                new Curve("S3 q=20", 3, "q=20"),
                new Curve("S5 T_r=50", 5, "Tr=50"),
                new Curve("S5 T_r=100", 5, "Tr=100"),
                new Curve("S5 T_r=300", 5, "Tr=300")),
                "three q curves (the text cites q = 1 and q = 20) and three T_r curves",
                "q = 5; T_r = 50, 100 (base), 300; D from 10 to 150 in steps of N = 10");
    }

    static double[] range(double from, double to, double step) {
        int n = (int) Math.round((to - from) / step);
        return DoubleStream.iterate(0, i -> i + 1).limit(n + 1L).map(i -> round(from + i * step)).toArray();
    }

    private static double round(double v) {
        return Math.round(v * 1e9) / 1e9;
    }
}
