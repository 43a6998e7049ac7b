package dev.onceproof.bench.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.Mode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The verdict rules on made-up numbers: a GAP only where the paper's known bias explains the
 * disagreement, a FAIL where nothing does, a PASS inside the interval.
 */
class EvalChecksTest {

    private static Deliverability.Result causalResult(double simulated, double eq8) {
        var cfg = new Deliverability.Config("made up", 5, new LatencyModel.Exponential(1), 5, 100, 4, 0.99, 2, 0.2, 1);
        Map<Mode, Interval[]> sim = new EnumMap<>(Mode.class);
        Interval iv = new Interval(simulated, simulated - 0.01, simulated + 0.01);
        for (Mode m : Mode.values()) {
            sim.put(m, new Interval[] {iv, iv});
        }
        double[] eq = {eq8, eq8};
        return new Deliverability.Result(cfg, 6, 30, new double[] {1, 2}, sim, eq, eq, eq, eq, Map.of(), Map.of(),
                Map.of(), 0.5, 0);
    }

    @Test
    void eq8BelowTheSimulationIsAGapAboveItAFailInsideItAPass() {
        assertThat(EvalChecks.causal(causalResult(0.50, 0.40)).status()).isEqualTo(Check.Status.GAP);
        assertThat(EvalChecks.causal(causalResult(0.50, 0.60)).status()).isEqualTo(Check.Status.FAIL);
        assertThat(EvalChecks.causal(causalResult(0.50, 0.505)).status()).isEqualTo(Check.Status.PASS);
        assertThat(EvalChecks.causal(causalResult(0.50, 0.40)).measured()).contains("largest sim - Eq. 8 = 0.1000");
    }

    private static NetworkCost.Cell cell(double rate, double loss, double rerControl) {
        return new NetworkCost.Cell(rate, loss, 3, 100, 0, -1, -1, rerControl, 0, 1 + rerControl, 10, 200, 0, 0, 1, 0,
                -1, 1.0, 2.0, 30, 300, 0.5, 1.5, 20, 250, 0, -1, -1, -1, 0);
    }

    @Test
    void theCostClaimPassesOnlyWhereEveryLossAtTheTopRateIsTenfold() {
        EvalConfig c = EvalConfig.defaults(1, 1);
        List<NetworkCost.Cell> cheap = new ArrayList<>();
        List<NetworkCost.Cell> dear = new ArrayList<>();
        for (double rate : c.rates()) {
            for (double loss : c.losses()) {
                cheap.add(cell(rate, loss, 0.05));
                dear.add(cell(rate, loss, rate == 30 && loss == 0.1 ? 0.2 : 0.05));
            }
        }
        assertThat(EvalChecks.costClaim(c, cheap, "x", "u", NetworkCost.Cell::ratioEachControl, "why").status())
                .isEqualTo(Check.Status.PASS);
        Check gap = EvalChecks.costClaim(c, dear, "x", "u", NetworkCost.Cell::ratioEachControl, "why");
        assertThat(gap.status()).isEqualTo(Check.Status.GAP);
        assertThat(gap.measured()).contains("q=0.1 5.0", "r=30: q=0.0,q=0.01,q=0.05;");
        assertThat(gap.reason()).isEqualTo("why");
    }

    /** A lossy cell at w = 3 with the paper's recovery run: undelivered as printed and under L240's reading. */
    private static NetworkCost.Cell paperCell(long faithful, long restart, long restartLater, long tail) {
        return new NetworkCost.Cell(30, 0.1, 3, 100, 0, 1997, faithful / 2, 0.05, 0, 1.05, 10, 200, 0, 0, 1, 0,
                faithful, 1.0, 2.0, 30, 300, 0.5, 1.5, 20, 250, 0, restart, restartLater, restart, tail);
    }

    @Test
    void thePapersRecoveryIsAGapOnlyWhenL240sReadingLeavesNothingButTheTail() {
        assertThat(EvalChecks.paperLiveness(List.of(paperCell(0, 0, -1, 200))).status()).isEqualTo(Check.Status.PASS);
        Check gap = EvalChecks.paperLiveness(List.of(paperCell(500, 12, 40, 200)));
        assertThat(gap.status()).isEqualTo(Check.Status.GAP);
        assertThat(gap.reason()).contains("488 of the 500 pairs are recovered", "12 left all lie in the workload's tail");
        // an event with 1500 later events still missing under L240's reading: neither cause explains it
        assertThat(EvalChecks.paperLiveness(List.of(paperCell(500, 300, 1500, 200))).status())
                .isEqualTo(Check.Status.FAIL);
    }

    @Test
    void theTenfoldVerdictUsesTheFixedWNotTheBestOnePerCell() {
        EvalConfig c = EvalConfig.defaults(1, 1);
        List<NetworkCost.Cell> cells = new ArrayList<>();
        for (double rate : c.rates()) {
            for (double loss : c.losses()) {
                cells.add(cell(rate, loss, 0.2)); // w = 3: ratio 5
                cells.add(withW(cell(rate, loss, 0.05), 1)); // w = 1: ratio 20
            }
        }
        Check k = EvalChecks.costClaim(c, cells, "x", "u", NetworkCost.Cell::ratioEachControl, "why");
        assertThat(k.status()).isEqualTo(Check.Status.GAP);
        assertThat(k.measured()).contains("w = 3 in every cell (the verdict) r=1: q=0.0 5.0", "q=0.0 20.0 (w=1)");
    }

    private static NetworkCost.Cell withW(NetworkCost.Cell x, double w) {
        return new NetworkCost.Cell(x.rate(), x.loss(), w, x.pairs(), x.deliveredTwice(), x.faithfulLater(),
                x.faithfulNeverReceived(), x.rerControl(), x.rerHeartbeats(), x.rerAll(), x.rerControlBytes(),
                x.rerAllBytes(), x.requests(), x.blue(), x.meanLatency(), x.undelivered(), x.faithfulUndelivered(),
                x.eachControl(), x.eachAll(), x.eachControlBytes(), x.eachAllBytes(), x.cumControl(), x.cumAll(),
                x.cumControlBytes(), x.cumAllBytes(), x.rerIdleHeartbeats(), x.restartUndelivered(), x.restartLater(),
                x.restartNeverReceived(), x.tailEvents());
    }
}
