package dev.onceproof.bench.causal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.onceproof.causal.Mode;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The simulator's machinery on small runs of the real core: reproducible, complete, counted. */
class GroupSimTest {

    private static final LatencyModel EXP1 = new LatencyModel.Exponential(1);

    private static SimSpec spec(Mode mode, double loss, double heartbeat, long seed) {
        return new SimSpec(4, mode, EXP1, loss, 2, 7.657, heartbeat, 50,
                SimSpec.Workload.roundRobin(4, 4, 400), 60, seed);
    }

    @Test
    void theSameSeedGivesTheSameRunAndAnotherSeedAnother() {
        SimRun a = GroupSim.run(spec(Mode.CAUSAL, 0.05, 5, 42));
        SimRun b = GroupSim.run(spec(Mode.CAUSAL, 0.05, 5, 42));
        SimRun c = GroupSim.run(spec(Mode.CAUSAL, 0.05, 5, 43));
        assertThat(a.delivery).isDeepEqualTo(b.delivery);
        assertThat(a.sent).containsExactly(b.sent);
        assertThat(Arrays.deepEquals(a.delivery, c.delivery)).isFalse();
    }

    @Test
    void withHeartbeatsEveryPairIsDeliveredDespiteLossAndCausalRunsWaitLongerThanUnordered() {
        for (Mode mode : Mode.values()) {
            SimRun r = GroupSim.run(spec(mode, 0.1, 5, 7));
            assertThat(NetworkCost.undelivered(r)).as(mode.name()).isZero();
            assertThat(r.count(SimRun.Kind.REQUEST)).as(mode.name()).isPositive();
            // The one refusal a healthy run may see: a late request reaching a holder that has since
            // collected the event as stable (the requester got it meanwhile); it is counted, not answered.
            assertThat(r.refusals - r.refusalsByReason.get("UNKNOWN_EVENT")).as(mode + " " + r.refusalsByReason).isZero();
            assertThat(r.deliveredTwice).isZero();
            assertThat(r.duplicates).as(mode.name()).isPositive(); // recovered copies met their originals
        }
        double unordered = mean(Deliverability.latencies(GroupSim.run(spec(Mode.UNORDERED, 0, 0, 9)), 80));
        double causal = mean(Deliverability.latencies(GroupSim.run(spec(Mode.CAUSAL, 0, 0, 9)), 80));
        assertThat(unordered).isCloseTo(1.0, within(0.1)); // Exp(1) latency, nothing waits
        assertThat(causal).isGreaterThan(unordered * 1.2);
    }

    @Test
    void withoutLossOrRecoveryNoRequestIsSentAndReceptionIsTheFirstArrival() {
        SimRun r = GroupSim.run(new SimSpec(3, Mode.CAUSAL, EXP1, 0, Double.POSITIVE_INFINITY, 1, 0, 0,
                SimSpec.Workload.roundRobin(3, 2, 60), 50, 1));
        assertThat(r.count(SimRun.Kind.REQUEST) + r.count(SimRun.Kind.RESEND) + r.count(SimRun.Kind.HEARTBEAT)).isZero();
        assertThat(r.count(SimRun.Kind.DATA)).isEqualTo(60 * 2);
        for (int g = 0; g < r.events; g++) {
            for (int j = 0; j < 3; j++) {
                assertThat(r.delivery[g][j]).isGreaterThanOrEqualTo(r.reception[g][j]);
                if (r.remote(g, j)) {
                    assertThat(r.reception[g][j]).isEqualTo(r.dataArrival[g][j]);
                }
            }
        }
    }

    @Test
    void theFastAlgorithm1AgreesWithTheLiteralOne() {
        SimRun r = GroupSim.run(spec(Mode.CAUSAL, 0, 0, 3));
        var fast = Equations.bufferWaitCdf(r.delivery, r.reception, r.origin);
        for (double t : new double[] {0, 0.1, 0.5, 1, 2, 5}) {
            assertThat(fast.applyAsDouble(t)).isCloseTo(Equations.bufferWait(r.delivery, r.reception, t), within(1e-12));
        }
    }

    @Test
    void ackBaselinesWithoutLossSendEachEventOnceAndAckIt() {
        var each = AckBaselines.ackEach(4, 300, EXP1, 0, 7.657, 10, GroupSim.streams(1));
        assertThat(each.firstData()).isEqualTo(900);
        assertThat(each.acks()).isEqualTo(900 + each.retransmit()); // every copy is acknowledged
        assertThat(each.retransmit()).isLessThan(20); // only round trips above RTO (0.4%)
        var cum = AckBaselines.ackCumulative(4, 300, 40, EXP1, 0, 7.657, 1, 10, GroupSim.streams(2));
        assertThat(cum.pairs()).isEqualTo(900);
        assertThat(cum.acks()).isLessThan(900); // delayed acks cover several events
        var lossy = AckBaselines.ackCumulative(4, 300, 40, EXP1, 0.2, 7.657, 1, 10, GroupSim.streams(2));
        assertThat(lossy.retransmit()).isGreaterThan(100);
    }

    @Test
    void badSimulationParametersNameTheParameterAndTheRule() {
        assertThatThrownBy(() -> spec(Mode.CAUSAL, 1.0, 0, 1)).hasMessage("loss = 1.0 must be in [0, 1)");
        assertThatThrownBy(() -> new SimSpec(4, Mode.CAUSAL, EXP1, 0, 2, 0, 0, 0,
                SimSpec.Workload.roundRobin(4, 4, 10), 1, 1)).hasMessage("rto = 0.0 must be finite and > 0");
        assertThatThrownBy(() -> SimSpec.Workload.roundRobin(4, 0, 10)).hasMessage("rate = 0.0 must be finite and > 0");
        assertThatThrownBy(() -> new SimSpec(2, Mode.CAUSAL, EXP1, 0, 2, 1, 0, 0,
                new SimSpec.Workload(new double[] {0}, new int[] {5}), 1, 1))
                .hasMessage("workload origin = 5 must be a node index below 2");
    }

    private static double mean(double[] xs) {
        return Arrays.stream(xs).average().orElseThrow();
    }
}
