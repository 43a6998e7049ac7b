package dev.onceproof.bench.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Each closed form against a value derived another way: by hand from Table 1 (the arithmetic is in
 * the comments), or by integrating the definition of p_s numerically.
 */
class ClosedFormsTest {

    private static final Params BASE = Params.base();

    @Test
    void derivedTimesAtBaseValues() {
        // t_cs = 0.3 * 30 / 40 + 0.2 = 0.425; t_ss = 0.3 * 3 * 5 = 4.5
        assertThat(ClosedForms.tcs(BASE)).isCloseTo(0.425, offset(1e-12));
        assertThat(ClosedForms.tss(BASE)).isCloseTo(4.5, offset(1e-12));
        // X1: f_d(2 alpha d) = 1 - e^{-alpha/beta} = 1 - e^{-0.2} = 0.18127, "about 18%"
        assertThat(ClosedForms.f(BASE, 7, 2 * 0.05 * 7)).isCloseTo(0.181269, offset(1e-6));
        assertThat(ClosedForms.f(BASE, 7, 0.05 * 7 - 1e-9)).isZero();
        // N = 1: no other server, no fan-out
        assertThat(ClosedForms.tss(BASE.withAll("N=1"))).isZero();
        // N = 3, D = 30: servers 10 apart, floor(3/2) = 1: the farthest is 10 hops
        assertThat(ClosedForms.farthest(BASE.withAll("N=3"))).isEqualTo(10);
    }

    @Test
    void strategies0To4AtBaseValues() {
        double p0 = 15 / 0.85; // 17.647
        assertThat(ClosedForms.p0(BASE).value()).isCloseTo(p0, offset(1e-9));
        assertThat(ClosedForms.p1(BASE)).isEqualTo(ClosedForms.p0(BASE));
        assertThat(ClosedForms.p2(BASE)).isEqualTo(ClosedForms.p0(BASE));
        // threshold 1 + 4.5/0.425 = 11.588: q = 12 is enough, q = 11 is not
        assertThat(ClosedForms.slotThreshold(BASE)).isCloseTo(11.5882, offset(1e-4));
        assertThat(ClosedForms.p3(BASE.with("q", 12)).value()).isCloseTo(p0, offset(1e-9));
        // q = 11: 15 * 11 / (0.85 + 9) = 16.751
        assertThat(ClosedForms.p3(BASE.with("q", 11)).value()).isCloseTo(165 / 9.85, offset(1e-9));
        // p_4 = (15 - 9) / 0.85 = 7.0588, ratio 0.4
        assertThat(ClosedForms.ratio(4, BASE).value()).isCloseTo(0.4, offset(1e-12));
    }

    @Test
    void strategy4BelowItsSetupIsClampedKeepingTheFormulasValue() {
        // T_c = 5 < 2 t_ss = 9: (5 - 9)/0.85 = -4.706
        ClosedForms.Throughput t = ClosedForms.p4(BASE.with("Tc", 5));
        assertThat(t.value()).isZero();
        assertThat(t.unclamped()).isCloseTo(-4 / 0.85, offset(1e-9));
        assertThat(t.clamped()).isTrue();
    }

    @Test
    void strategy5AtBaseValues() {
        // d_AB = 15, alpha d = 0.75, beta d = 3.75, M = 99.25;
        // p_s = 1 - (99.25 - 3.75 (1 - e^{-99.25/3.75})) / 300 = 1 - 95.5/300 = 0.681667
        assertThat(ClosedForms.ps5(BASE)).isCloseTo(0.681667, offset(1e-6));
        // p_5 = (15 - 0.681667 * 9) / 0.85, ratio 1 - 0.681667 * 9 / 15 = 0.591
        assertThat(ClosedForms.ratio(5, BASE).value()).isCloseTo(1 - 0.6816667 * 9 / 15, offset(1e-6));
        // L373: T_r = 0 degenerates into Strategy 4 (p_s = 1)
        assertThat(ClosedForms.p5(BASE.with("Tr", 0))).isEqualTo(ClosedForms.p4(BASE.with("Tr", 0)));
    }

    @Test
    void strategy5MatchesItsDefinitionIntegratedNumerically() {
        double[][] points = {{100, 300, 30, 0.05, 0.25}, {300, 300, 30, 0.05, 0.25}, {5, 300, 90, 0.1, 0.5},
            {0.5, 300, 30, 0.05, 0.25}, {800, 300, 60, 0.02, 0.1}, {600, 600, 10, 0.05, 0.1}, {50, 20, 150, 0.05, 0.25}};
        for (double[] x : points) {
            Params p = BASE.withAll("Tr=" + x[0] + ",Tu=" + x[1] + ",D=" + (int) x[2] + ",alpha=" + x[3]
                    + ",beta=" + x[4]);
            double d = ClosedForms.farthest(p);
            // p_s = 1 - int_0^{T_u} (1/T_u) f_{d_AB}(T_r - t) dt, straight from the definition
            double integral = simpson(t -> ClosedForms.f(p, d, p.Tr() - t), 0, p.Tu(), 200_000) / p.Tu();
            assertThat(ClosedForms.ps5(p)).as("T_r=%s T_u=%s D=%s", x[0], x[1], x[2])
                    .isCloseTo(1 - integral, offset(2e-6));
        }
    }

    @Test
    void strategy5DoesNotOverflowWhereThePrintedFormDoes() {
        // D = 10, beta = 0.1: beta d_AB = 0.5, M = 599.75, M/(beta d) = 1199.5: e^{1199.5} is infinite
        Params p = BASE.withAll("D=10,beta=0.1,Tr=600,Tu=600");
        double d = ClosedForms.farthest(p);
        double printed = 1 - (599.75 - 0.5 * Math.exp(-(600 - 0.25) / 0.5) * (Math.exp(599.75 / 0.5) - 1)) / 600;
        assertThat(Double.isNaN(printed) || Double.isInfinite(printed)).isTrue();
        // without the overflow: p_s = 1 - (599.75 - 0.5 (1 - e^{-1199.5})) / 600 = 0.0012500
        assertThat(ClosedForms.ps5(p)).isCloseTo(1 - 599.25 / 600, offset(1e-12));
        assertThat(d).isEqualTo(5);
    }

    @Test
    void strategy6AtBaseValuesAndOutsideThePrintedRange() {
        // p_s = e^{-(10 - 0.5)/2.5} = e^{-3.8} = 0.0223708, t_s = 2 * 0.3 * 10 = 6
        assertThat(ClosedForms.ps6(BASE)).isCloseTo(0.0223708, offset(1e-7));
        assertThat(ClosedForms.p6(BASE).value()).isCloseTo((15 - 0.0223708 * 6) / 0.85, offset(1e-6));
        // d' = 0: the same server, no overhead (L388)
        assertThat(ClosedForms.ratio(6, BASE.with("dprime", 0)).value()).isEqualTo(1.0);
        // t' = 0.2 < alpha d' = 0.5: the sync cannot have arrived; the printed e^{+0.12} would exceed 1
        assertThat(ClosedForms.ps6(BASE.with("tprime", 0.2))).isEqualTo(1.0);
        assertThat(Math.exp(-(0.2 - 0.5) / 2.5)).isGreaterThan(1);
    }

    @Test
    void strategy3BranchesMeetAtTheThreshold() {
        // q exactly at 1 + t_ss/t_cs: choose t_cap so that t_ss/t_cs = 9 (q = 10): t_cs = 0.5
        Params p = BASE.withAll("q=10,tcap=0.275");
        assertThat(ClosedForms.slotThreshold(p)).isCloseTo(10, offset(1e-12));
        assertThat(ClosedForms.p3(p).value()).isCloseTo(ClosedForms.p0(p).value(), offset(1e-9));
    }

    private static double simpson(DoubleUnaryOperator g, double a, double b, int n) {
        double h = (b - a) / n;
        double sum = g.applyAsDouble(a) + g.applyAsDouble(b);
        for (int i = 1; i < n; i++) {
            sum += g.applyAsDouble(a + i * h) * (i % 2 == 1 ? 4 : 2);
        }
        return sum * h / 3;
    }
}
