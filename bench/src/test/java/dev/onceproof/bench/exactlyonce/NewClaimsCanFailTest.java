package dev.onceproof.bench.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every claim issue 18 added to the exactly-once bench must be able to fail: each is run here on
 * small inputs with the parameter that breaks the property (or on numbers that break it), and must
 * say FAIL. The bench's own run shows the other side.
 */
class NewClaimsCanFailTest {

    private static final Simulator SIM = new CachingSimulator(new CoreSimulator());
    private static final Params BASE = Params.base();

    @Test
    void appBGapRuleFailsWhenNeitherAppBNorTheReasonIsInTheInterval() {
        Simulated.Estimate e = new Simulated.Estimate(0.20, 0.17, 0.24, 100, 0, 0);
        assertThat(Judge.gap(0.21, e, 0.9)).isEqualTo(Claim.Status.PASS);
        assertThat(Judge.gap(0.40, e, 0.22)).isEqualTo(Claim.Status.GAP);
        assertThat(Judge.gap(0.40, e, 0.60)).isEqualTo(Claim.Status.FAIL);
    }

    @Test
    void theSetupModelSeesNoGapWhereThereIsNoSetup() {
        // The reasons' model: Strategy 6 with the previous server being this one pulls nothing, and
        // Strategy 4 at base loses about the slowest round trip (12.5 s of 15): near 0.2, not App. B's 0.4.
        assertThat(SetupModel.ratio(6, BASE.with("dprime", 0), 1, 20_000)).isEqualTo(1.0);
        assertThat(SetupModel.ratio(4, BASE, 1, 20_000)).isBetween(0.15, 0.25);
    }

    @Test
    void s5StartsFasterFailsAtTrZeroWhereS5IsS4() {
        Claim c = BehaviourClaims.startsFaster(List.of(BASE.with("Tr", 0)), 1, 12);
        assertThat(c.status()).as(c.measured()).isEqualTo(Claim.Status.FAIL);
    }

    @Test
    void fewerSyncsFailsWhenS6SendsMore() {
        double[] few = {9, 9, 11, 9};
        double[] many = {30, 32, 35, 29};
        Simulated.Estimate d = Judge.pairedDifference(few, many);
        assertThat(BehaviourClaims.fewerSyncsVerdict(few, many, d, 4).status()).isEqualTo(Claim.Status.FAIL);
        Simulated.Estimate r = Judge.pairedDifference(many, few);
        assertThat(BehaviourClaims.fewerSyncsVerdict(many, few, r, 4).status()).isEqualTo(Claim.Status.PASS);
    }

    @Test
    void modestStorageFailsWithFiveSlots() {
        Claim c = BehaviourClaims.modestStorage(BASE, SIM, 1, 2, 5);
        assertThat(c.status()).as(c.measured()).isEqualTo(Claim.Status.FAIL);
    }

    @Test
    void fig7FallsFailsWithoutOverheadAtDprimeZero() {
        Claim c = BehaviourClaims.fig7FallsAt(BASE.with("dprime", 0), null, SIM, 1, 4);
        assertThat(c.status()).as(c.measured()).isEqualTo(Claim.Status.FAIL);
    }

    @Test
    void trKeyFactorFailsWhenWaitingLongerDoesNotHelp() {
        assertThat(BehaviourClaims.trKeyFactor(fig8(0.8)).status()).isEqualTo(Claim.Status.PASS);
        assertThat(BehaviourClaims.trKeyFactor(fig8(0.15)).status()).isEqualTo(Claim.Status.FAIL);
    }

    /** Figure 8's S5 curves with one point at D = 70: T_r = 50 near 0, T_r = 300 at {@code high}. */
    private static List<EoExperiment.CurveResult> fig8(double high) {
        List<EoExperiment.CurveResult> out = new ArrayList<>();
        for (Figures.Curve c : Figures.figure8().curves()) {
            double v = c.label().equals("S5 T_r=300") ? high : 0.01;
            Simulated s = new Simulated(v, new Simulated.Estimate(v, v - 0.05, v + 0.05, 100, 0, 0), null);
            out.add(new EoExperiment.CurveResult(c, List.of(new Point(c.strategy(), 70, BASE.with("D", 70),
                    ClosedForms.ratio(c.strategy(), BASE.with("D", 70)), s))));
        }
        return out;
    }

    /**
     * "Reaches 1" is judged on the interval, so too few connections make every interval reach 1: with
     * 4 connections this line PASSes (S6 0.74 [0.18, 1.30]); 10 give intervals narrow enough.
     */
    @Test
    void oftenNoDearerFailsWhereOnlyTheStreamStrategiesAreFree() {
        Claim c = BehaviourClaims.oftenNoDearer(BASE.withAll("q=1,dprime=15,tprime=2"), SIM, 1, 10);
        assertThat(c.status()).as(c.measured()).isEqualTo(Claim.Status.FAIL);
    }

    @Test
    void tuSensitivityFailsForAStrategyWithoutPeriodicSyncs() {
        Claim c = SensitivityClaims.tu(4, BASE, SIM, 1, 4);
        assertThat(c.status()).as(c.measured()).isEqualTo(Claim.Status.FAIL);
    }

    @Test
    void tcInsensitivityFailsForStrategy4() {
        Claim c = SensitivityClaims.tc(new int[] {4}, BASE, SIM, 1, 4);
        assertThat(c.status()).as(c.measured()).isEqualTo(Claim.Status.FAIL);
    }

    /** A simulator that answers every stochastic point with the same interval (the numbers under test). */
    private static Simulator fixed(double mean) {
        return new Simulator() {
            @Override
            public java.util.Optional<String> missing(int strategy) {
                return java.util.Optional.empty();
            }

            @Override
            public double meanValue(int strategy, Params p) {
                throw new AssertionError("not used");
            }

            @Override
            public Simulated.Estimate stochasticRatio(int strategy, Params p, long seed, int connections) {
                return new Simulated.Estimate(mean, mean - 0.03, mean + 0.03, connections, 0, 0);
            }
        };
    }

    @Test
    void theSlotsLineFailsWhenPuttingAppBsSimplificationsBackDoesNotCloseTheGap() {
        assertThat(StochasticClaims.slots(BASE, fixed(1.0), fixed(1.0), 1, 100).status()).isEqualTo(Claim.Status.PASS);
        assertThat(StochasticClaims.slots(BASE, fixed(0.75), fixed(1.0), 1, 100).status()).isEqualTo(Claim.Status.GAP);
        assertThat(StochasticClaims.slots(BASE, fixed(0.75), fixed(0.85), 1, 100).status())
                .isEqualTo(Claim.Status.FAIL);
    }

    @Test
    void aGatherGapFailsWhenTheCoresAgreeWithNeitherAppBNorTheReason() {
        // S4 at base: App. B 0.40, the reason's model about 0.23; cores at 0.60 match neither
        assertThat(StochasticClaims.gather("x", "L1", 4, BASE, fixed(0.60), 1, 100, "s", "r").status())
                .isEqualTo(Claim.Status.FAIL);
        assertThat(StochasticClaims.gather("x", "L1", 4, BASE, fixed(0.22), 1, 100, "s", "r").status())
                .isEqualTo(Claim.Status.GAP);
        assertThat(StochasticClaims.gather("x", "L1", 4, BASE, fixed(0.40), 1, 100, "s", "r").status())
                .isEqualTo(Claim.Status.PASS);
    }
}
