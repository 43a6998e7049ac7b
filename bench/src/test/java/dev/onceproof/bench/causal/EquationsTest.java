package dev.onceproof.bench.causal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.statistics.distribution.ExponentialDistribution;
import org.apache.commons.statistics.distribution.GammaDistribution;
import org.apache.commons.statistics.distribution.LaplaceDistribution;
import org.apache.commons.statistics.distribution.ParetoDistribution;
import org.junit.jupiter.api.Test;

/**
 * The calculator against the paper's worked example and against checks that do not share its
 * formulas: Commons Statistics distributions, numerical integration of the paper's own integrals,
 * finite differences and a numerical maximum.
 */
class EquationsTest {

    private static final LatencyModel.Exponential EXAMPLE = new LatencyModel.Exponential(0.3);

    @Test
    void workedExampleOfSection43GivesTp2266AndAWindowOf680() {
        double tp = Equations.visibilityTime(EXAMPLE, 10, 0.99);
        assertThat(tp).isCloseTo(22.6598, within(1e-4));
        assertThat(Equations.window(tp, 30)).isCloseTo(679.79, within(0.01));
        assertThat(Math.round(Equations.window(tp, 30))).isEqualTo(680);
        // The printed n-th root misses the example: 23.01 and 690 events.
        assertThat(Equations.visibilityTimeAsPrinted(0.3, 10, 0.99)).isCloseTo(23.0108, within(1e-4));
        // Independently: the n - 1 = 9 other nodes have all received it with probability p.
        double cdf = ExponentialDistribution.of(1 / 0.3).cumulativeProbability(tp);
        assertThat(Math.pow(cdf, 9)).isCloseTo(0.99, within(1e-12));
    }

    @Test
    void eq2RepairedIsTheMixtureOfTheTwoLibraryCdfs() {
        var m = new LatencyModel.ParetoExponential(0.0878, 1.66, 10, 0.235);
        var exp = ExponentialDistribution.of(1 / 1.66);
        var par = ParetoDistribution.of(0.235, 10);
        for (double t : new double[] {0.1, 0.235, 0.3, 1, 5}) {
            assertThat(m.cdf(t)).as("t=%s", t).isCloseTo(
                    0.0878 * exp.cumulativeProbability(t) + 0.9122 * par.cumulativeProbability(t), within(1e-12));
        }
        // t(p) for the mixture (no closed form): F(t)^(n-1) = p solved numerically.
        double t3 = Equations.visibilityTime(m, 3, 0.99);
        assertThat(Math.pow(m.cdf(t3), 2)).isCloseTo(0.99, within(1e-9));
        assertThat(t3).isCloseTo(1.725, within(0.001));
        assertThat(Equations.visibilityTime(m, 10, 0.99)).isCloseTo(2.630, within(0.001));
    }

    @Test
    void eq5IsTheLaplaceCdfOfTheDifferenceOfTwoLatencies() {
        // X - Y with X, Y i.i.d. Exp(lambda) is Laplace(0, 1/lambda); the library's CDF is independent.
        var laplace = LaplaceDistribution.of(0, 1 / 0.7);
        for (double t = -3; t <= 6; t += 0.25) {
            assertThat(Equations.remoteCdf(0.7, t)).as("t=%s", t)
                    .isCloseTo(laplace.cumulativeProbability(t), within(1e-12));
        }
    }

    @Test
    void eq3AndEq4MultiplyTheRightFactors() {
        var x = new LatencyModel.Exponential(1);
        double[] deltas = {2, 1, 0};
        assertThat(Equations.fifoKth(x, deltas, 0.5)).isCloseTo(x.cdf(2.5) * x.cdf(1.5) * x.cdf(0.5), within(1e-15));
        var kinds = new Equations.Seen[] {Equations.Seen.REMOTE, Equations.Seen.REMOTE_FROM_DESTINATION,
            Equations.Seen.LOCAL};
        assertThat(Equations.causalKth(1, kinds, deltas, 0.5))
                .isCloseTo(Equations.remoteCdf(1, 2.5) * x.cdf(0.5), within(1e-15));
    }

    @Test
    void eq7AtTheWorkedExampleMatchesTheNotesRecomputation() {
        double tp = Equations.visibilityTime(EXAMPLE, 10, 0.99);
        assertThat(Equations.fifoGeneral(EXAMPLE, 10, 30, tp, 10)).isCloseTo(0.5888, within(5e-4));
        assertThat(Equations.fifoGeneral(EXAMPLE, 10, 30, tp, 20.0 / 3)).isCloseTo(0.2289, within(5e-4));
        // 68 factors: i = 0..67 < 67.98.
        double prod = 1;
        for (int i = 0; i <= 67; i++) {
            prod *= EXAMPLE.cdf(10 + i / 3.0);
        }
        assertThat(Equations.fifoGeneral(EXAMPLE, 10, 30, tp, 10)).isCloseTo(prod, within(1e-15));
    }

    @Test
    void eq8WithAConstantBufferWaitReducesToAProductOfKnownFactors() {
        // P(D) = 1 everywhere (footnote 3: constant latency): every remote factor is P(R).
        double tp = 1.0; // window = 3 events at r = 3
        double got = Equations.causalGeneral(1, 3, 3, tp, 0.5, d -> 1.0);
        double x = -Math.expm1(-0.5);
        assertThat(got).isCloseTo(x * Equations.remoteCdf(1, 0.5 + 1 / 3.0) * Equations.remoteCdf(1, 0.5 + 2 / 3.0),
                within(1e-15));
        // Corrected: destination at offset 1 or 2 sees one factor replaced by 1.
        double corrected = Equations.causalGeneralCorrected(1, 3, 3, tp, 0.5, d -> 1.0);
        assertThat(corrected).isCloseTo(x * (Equations.remoteCdf(1, 0.5 + 1 / 3.0)
                + Equations.remoteCdf(1, 0.5 + 2 / 3.0)) / 2, within(1e-15));
        // P(D) = 0: no remote event is a dependency, only the local factor is left.
        assertThat(Equations.causalGeneral(1, 3, 3, tp, 0.5, d -> 0.0)).isCloseTo(x, within(1e-15));
    }

    @Test
    void algorithm1CountsRemoteCellsOnly() {
        double[][] reception = {{0, 1, 2}, {5, 5, 7}};
        double[][] delivery = {{0, 3, 2}, {5, 6, 7}};
        // Remote waits: row 0: 2, 0 (origin col 0); row 1: 1 (col 1), 0 (col 2); origin col 0 in row 1.
        assertThat(Equations.bufferWait(delivery, reception, 0)).isEqualTo(0.5);
        assertThat(Equations.bufferWait(delivery, reception, 1)).isEqualTo(0.75);
        assertThat(Equations.bufferWait(delivery, reception, 2)).isEqualTo(1.0);
        assertThatThrownBy(() -> Equations.bufferWait(delivery, reception, -1))
                .hasMessageContaining("t = -1.0 must be >= 0");
    }

    @Test
    void eq10IsTheIntegralItClaims() {
        // P(s + B <= A <= s + B + G), G = C + D ~ Gamma(2, 1/lambda): integrate over b and g with the
        // library's densities, A's CDF from the library. Nothing here uses 3/8.
        double lambda = 0.3;
        var exp = ExponentialDistribution.of(1 / lambda);
        var gamma = GammaDistribution.of(2, 1 / lambda);
        for (double s : new double[] {0, 1, 2, 5}) {
            double hi = 40 / lambda;
            double integral = simpson(b -> exp.density(b) * simpson(g -> gamma.density(g)
                    * (exp.cumulativeProbability(s + b + g) - exp.cumulativeProbability(s + b)), 0, hi, 1000), 0, hi, 1000);
            assertThat(Equations.betweenRequestAndResend(lambda, s)).as("s=%s", s).isCloseTo(integral, within(1e-6));
        }
    }

    @Test
    void eq12IsTheSlopeOfEq11AndItsRootGives3Over32() {
        for (double lambda : new double[] {1, 0.3}) {
            for (double w : new double[] {0, 0.5, 1, 3}) {
                for (double rho : new double[] {0.2, 1, 2.5}) {
                    double h = 1e-6;
                    double numeric = (Equations.falsePositiveSurface(lambda, w, rho + h)
                            - Equations.falsePositiveSurface(lambda, w, rho - h)) / (2 * h);
                    assertThat(Equations.falsePositiveSlope(lambda, w, rho)).isCloseTo(numeric, within(1e-8));
                }
                double best = goldenMax(rho -> Equations.falsePositiveSurface(lambda, w, rho), 0, 20 / lambda);
                assertThat(best).isCloseTo(Equations.worstRho(lambda), within(1e-5));
                assertThat(Equations.falsePositiveSurface(lambda, w, best))
                        .isCloseTo(Equations.maxFalsePositive(lambda, w), within(1e-12));
            }
        }
        assertThat(Equations.maxFalsePositive(1, 1)).isCloseTo(0.034489, within(1e-6));
        assertThat(Equations.waitForBudget(1, 0.01)).isCloseTo(2.238, within(1e-3));
    }

    @Test
    void eq13FromTheModel() {
        // RTT of a request and its resend ~ Gamma(2, 1/lambda): mean 2/lambda, sd sqrt(2)/lambda.
        for (double lambda : new double[] {1, 0.3}) {
            var rtt = GammaDistribution.of(2, 1 / lambda);
            double rto = Equations.rto(new LatencyModel.Exponential(lambda), Equations.RtoReading.STANDARD_DEVIATION);
            assertThat(rto).isCloseTo(rtt.getMean() + 4 * Math.sqrt(rtt.getVariance()), within(1e-9));
            assertThat(rtt.survivalProbability(rto)).isCloseTo(4.1e-3, within(1e-4));
        }
        assertThat(Equations.rto(new LatencyModel.Exponential(1), Equations.RtoReading.STANDARD_DEVIATION))
                .isCloseTo(7.657, within(1e-3));
        assertThat(Equations.rto(new LatencyModel.Exponential(0.3), Equations.RtoReading.VARIANCE_AS_PRINTED))
                .isCloseTo(95.556, within(1e-3));
        assertThatThrownBy(() -> Equations.rto(new LatencyModel.ParetoExponential(0.62, 0.183, 1.51, 1.05),
                Equations.RtoReading.STANDARD_DEVIATION)).hasMessageContaining("alpha <= 2");
    }

    @Test
    void outOfDomainInputNamesTheParameterAndTheRule() {
        assertThatThrownBy(() -> new LatencyModel.Exponential(0)).hasMessage("lambda = 0.0 must be finite and > 0");
        assertThatThrownBy(() -> new LatencyModel.ParetoExponential(1.5, 1, 1, 1)).hasMessage("p = 1.5 must be in [0, 1]");
        assertThatThrownBy(() -> Equations.visibilityTime(EXAMPLE, 1, 0.99)).hasMessageStartingWith("n = 1 must be >= 2");
        assertThatThrownBy(() -> Equations.visibilityTime(EXAMPLE, 10, 1)).hasMessage("p = 1.0 must be in (0, 1)");
        assertThatThrownBy(() -> Equations.window(1, -30)).hasMessage("rate = -30.0 must be finite and > 0");
        assertThatThrownBy(() -> Equations.falsePositiveSurface(1, -1, 1)).hasMessage("w = -1.0 must be >= 0");
    }

    /** Composite Simpson rule with {@code m} (even) panels: a test-only check, not the calculator. */
    static double simpson(DoubleUnaryOperator f, double a, double b, int m) {
        double h = (b - a) / m;
        double sum = f.applyAsDouble(a) + f.applyAsDouble(b);
        for (int i = 1; i < m; i++) {
            sum += (i % 2 == 1 ? 4 : 2) * f.applyAsDouble(a + i * h);
        }
        return sum * h / 3;
    }

    private static double goldenMax(DoubleUnaryOperator f, double a, double b) {
        double g = (Math.sqrt(5) - 1) / 2;
        while (b - a > 1e-10) {
            double c = b - g * (b - a);
            double d = a + g * (b - a);
            if (f.applyAsDouble(c) > f.applyAsDouble(d)) {
                b = d;
            } else {
                a = c;
            }
        }
        return (a + b) / 2;
    }
}
