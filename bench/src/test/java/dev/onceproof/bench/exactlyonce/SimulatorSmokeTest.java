package dev.onceproof.bench.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A few points of {@code ./onceproof bench exactlyonce} in both modes on the real cores: the
 * mean-value mode reproduces the closed forms within 2% (App. B, notes Z23), the stochastic mode is
 * reproducible from its seed and gives an interval around its mean, and the 2% check can fail.
 */
class SimulatorSmokeTest {

    private static final CoreSimulator SIM = new CoreSimulator();

    @Test
    void strategies0To3HaveCoresAnd4To6Are() {
        for (int s = 0; s <= 3; s++) {
            assertThat(SIM.missing(s)).as("S" + s).isEmpty();
        }
        for (int s = 4; s <= 6; s++) {
            assertThat(SIM.missing(s)).as("S" + s).hasValueSatisfying(why -> assertThat(why).contains("no Java core"));
        }
    }

    @Test
    void meanValueModeMatchesTheClosedFormsWithin2PercentAtBaseValues() {
        Params base = Params.base();
        for (int s = 0; s <= 3; s++) {
            double analytic = ClosedForms.p(s, base).value();
            assertThat(SIM.meanValue(s, base)).as("p_%d at base", s).isCloseTo(analytic, offset(0.02 * analytic));
        }
    }

    @Test
    void meanValueModeMatchesStrategy3BelowItsSlotThreshold() {
        // q = 5 < 11.59: R fills up and the client waits for purges, the second branch of p_3
        for (int q : new int[] {1, 5, 11}) {
            Params p = Params.base().with("q", q);
            double analytic = ClosedForms.p3(p).value();
            assertThat(SIM.meanValue(3, p)).as("p_3 at q = %d", q).isCloseTo(analytic, offset(0.02 * analytic));
        }
    }

    @Test
    void stochasticModeIsSeededAndGivesAnInterval() {
        Params p = Params.base().with("q", 5);
        Simulated.Estimate a = SIM.stochasticRatio(3, p, 7, 10);
        Simulated.Estimate b = SIM.stochasticRatio(3, p, 7, 10);
        Simulated.Estimate c = SIM.stochasticRatio(3, p, 8, 10);
        assertThat(a).isEqualTo(b);
        assertThat(c.mean()).isNotEqualTo(a.mean());
        assertThat(a.lo()).isLessThan(a.mean());
        assertThat(a.hi()).isGreaterThan(a.mean());
        assertThat(a.connections()).isEqualTo(10);
        // Strategy 0 against itself on the same draws: exactly 1, no width
        Simulated.Estimate self = SIM.stochasticRatio(0, Params.base(), 7, 5);
        assertThat(self.mean()).isEqualTo(1.0);
        assertThat(self.hi() - self.lo()).isZero();
    }

    @Test
    void theTwoPercentCheckFailsForASimulatorThatIsOff() {
        Simulator off = new Simulator() {
            @Override
            public Optional<String> missing(int strategy) {
                return strategy <= 3 ? Optional.empty() : Optional.of("no core");
            }

            @Override
            public double meanValue(int strategy, Params p) {
                return ClosedForms.p(strategy, p).value() * (strategy == 3 ? 1.03 : 1.0);
            }

            @Override
            public Simulated.Estimate stochasticRatio(int strategy, Params p, long seed, int connections) {
                throw new AssertionError("not asked for with 0 connections");
            }
        };
        EoExperiment.Results res = EoExperiment.run(Params.base(), off, 1, 0);
        Map<String, Claim> byId = res.claims().stream().collect(java.util.stream.Collectors.toMap(Claim::id, c -> c));
        assertThat(byId.get("meanvalue-within-2pct").status()).as(byId.get("meanvalue-within-2pct").measured())
                .isEqualTo(Claim.Status.FAIL);
        assertThat(byId.get("p1-p2-equal-p0").status()).isEqualTo(Claim.Status.PASS);
    }

    @Test
    void costsAreMeasuredOnTheSameConnections() {
        List<CostTable.Row> rows = CostTable.measure(Params.base().with("q", 5), SIM, 3, 10);
        assertThat(rows).extracting(CostTable.Row::strategy).containsExactly(0, 1, 2, 3);
        CostTable.Row s0 = rows.get(0);
        CostTable.Row s3 = rows.get(3);
        // S0: a delivery and an ack per note; S3 adds a sync round with the 9 others and a purge exchange
        assertThat(s0.messagesPerNote()).isCloseTo(2.0, offset(0.2));
        assertThat(s3.messagesPerNote()).isGreaterThan(15);
        assertThat(s3.clientSlots()).isLessThanOrEqualTo(5);
        assertThat(rows).allSatisfy(r -> assertThat(r.duplicates()).isZero());
    }
}
