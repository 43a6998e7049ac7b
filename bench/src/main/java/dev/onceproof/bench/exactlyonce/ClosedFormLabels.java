package dev.onceproof.bench.exactlyonce;

import java.util.Map;

/**
 * What each line on the closed forms rests on (issue 18, item 4): an {@code identity} holds for
 * every parameter value by the algebra of App. B, so it restates the formula and cannot fail; a
 * {@code closed-form} line compares the formula at the paper's parameters with a number the paper
 * prints, which could have come out otherwise. One table, so the labels are read in one place.
 */
final class ClosedFormLabels {

    private ClosedFormLabels() {
    }

    private record Label(boolean identity, String expected) {
    }

    private static Label closed(String expected) {
        return new Label(false, expected);
    }

    private static Label identity(String why) {
        return new Label(true, why);
    }

    private static final Map<String, Label> LABELS = Map.ofEntries(
            Map.entry("f-18-percent", closed("about 18% (L297): 1 - e^(-alpha/beta) in 0.17..0.19")),
            Map.entry("fig4-12-slots", closed("about 12 slots (L343): smallest q at ratio 1 in 11..13")),
            Map.entry("fig4-tcap0-needs-more", identity("identity: the threshold 1 + t_ss/t_cs rises as t_cap falls,"
                    + " since t_cs = lambda D/(4N) + t_cap")),
            Map.entry("fig4-threshold", closed("below 0.25 at q = 1, non-decreasing in q, reaching 1")),
            Map.entry("fig5-short-near-zero", identity("identity: p_4 = max(0, T_c - 2 t_ss)/(2 t_cs) is 0 while"
                    + " T_c <= 2 t_ss")),
            Map.entry("fig5-tends-to-1", identity("identity: p_4/p_0 = 1 - 2 t_ss/T_c rises to 1")),
            Map.entry("fig5-worse-with-D", identity("identity: t_ss grows with D, so 1 - 2 t_ss/T_c falls")),
            Map.entry("fig6-tr0-is-s4", identity("identity: at T_r = 0, M = 0 and p_s = 1, so p_5 = p_4")),
            Map.entry("fig6-unnoticeable-at-Tu", closed("p5/p0 >= 0.98 at T_r >= T_u (our reading of 'practically"
                    + " unnoticeable')")),
            Map.entry("fig6-better-with-Tr", identity("identity: p_s = 1 - (1/T_u) int_0^M f(T_r - t) dt falls as"
                    + " T_r grows (f is a CDF)")),
            Map.entry("fig6-larger-alpha-worse", identity("identity: f_d(t) falls and t_ss grows with alpha")),
            Map.entry("fig6-larger-beta-worse", identity("identity: f_d(t) falls and t_ss grows with beta")),
            Map.entry("fig6-beta-significant", closed("|d ratio/d ln beta| > |d ratio/d ln alpha| at base")),
            Map.entry("fig7-d0-is-s0", identity("identity: at d' = 0, p_s = 1 - f_0(t') = 0 and t_s = 0")),
            Map.entry("fig7-grows-with-d", identity("identity: p_s = 1 - f_d'(t') and t_s = 2 E(d') grow with d'")),
            Map.entry("fig7-range", closed("S6 at 0.9 within 5 s, S4 not within 50 s (0-5 s against 0-50 s, L386)")),
            Map.entry("s6-bigger-tprime-better", identity("identity: p_s = 1 - f_d'(t') falls as t' grows")),
            Map.entry("fig8-q1-costly", closed("p3/p0 < 0.5 at q = 1, D = 10")),
            Map.entry("fig8-q20-free", closed("p3/p0 = 1 at every D for q = 20")),
            Map.entry("fig8-fall-with-D", identity("identity: t_ss/t_cs, p_s and t_s all grow with D")),
            Map.entry("fig8-s5-steeper", closed("mean drop of the S5 curves > that of the S3 curves")));

    /** The line with its basis and expectation; lines not in the table are returned as they are. */
    static Claim label(Claim c) {
        Label l = LABELS.get(c.id());
        if (l == null) {
            return c;
        }
        return l.identity() ? c.identity(l.expected()) : c.expected(l.expected());
    }
}
