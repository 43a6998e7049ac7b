package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The flush restart on the core (specs/causal/CausalMembershipRestart.tla, issue 19 item 3): a
 * suspicion during a running flush, the coordinator's included, restarts it for the larger set;
 * the next survivor coordinates and collects every report again. The stored trace
 * causal-coordinator-restart replays the first scenario against the spec.
 */
class ViewChangeRestartTest {

    private static final NodeId N0 = NodeId.of(0), N1 = NodeId.of(1), N2 = NodeId.of(2);
    private static final SeqSet ONE = new SeqSet(1, new TreeSet<>());

    private static CausalNode node(int k, ManualTicker t) {
        return new CausalNode(CausalConfig.of(3, NodeId.of(k), Mode.CAUSAL, 3, 7, 5), t);
    }

    /**
     * n1 coordinates n0's removal, decides on n0's event (n1 delivered it, n2 holds it frozen) and
     * crashes; n2 suspects n1, becomes the coordinator, reports again while holding the event, and the
     * freeze keeps it back; the new decision leaves it out (only n1 had delivered it), and n2 installs
     * the view {n2}. The core without {@code awaitingDecision} delivers it after its new report.
     */
    @Test
    void aCoordinatorCrashAfterItsDecisionRestartsTheFlushUnderTheNextSurvivor() {
        assertThat(restartAfterDecision(node(2, new ManualTicker(0)))).isEmpty();
        CausalNode byOldDecision = new CausalNode(CausalConfig.of(3, N2, Mode.CAUSAL, 3, 7, 5), new ManualTicker(0)) {
            @Override
            protected boolean awaitingDecision(int k) {
                return false;
            }
        };
        assertThat(restartAfterDecision(byOldDecision)).as("control: delivers by the superseded decision")
                .containsExactly(new EventId(N0, 1));
    }

    /** The scenario with n2 given; returns what n2 may deliver right after its report to the new round. */
    private static List<EventId> restartAfterDecision(CausalNode n2) {
        ManualTicker t = new ManualTicker(0);
        CausalNode n0 = node(0, t), n1 = node(1, t);
        Step b = n0.broadcast(Payload.ofUtf8("x"));
        n1.handle(b.sends().get(0).message());
        ViewChange v = new ViewChange(3);
        assertThat(v.suspect(N2, N0)).isTrue();
        assertThat(v.coordinator()).isEqualTo(N1);
        n1.flushReport(N0);
        v.report(N1, n1.deliveredOf(N0));
        n2.flushReport(N0);
        v.report(N2, n2.deliveredOf(N0));
        n2.receive(b.sends().get(1).message()); // frozen: held back
        assertThat(n2.deliverable()).isEmpty();
        assertThat(v.decide().orElseThrow()).containsEntry(N0, ONE);
        n2.decideView(N0, ONE); // n2 may now deliver it, and does not yet
        assertThat(n2.deliverable()).containsExactly(new EventId(N0, 1));
        n1.crash();
        assertThat(v.suspect(N2, N1)).as("a suspicion mid-flush restarts it").isTrue();
        assertThat(v.flushing()).containsExactly(N0, N1);
        assertThat(v.coordinator()).isEqualTo(N2);
        assertThat(v.reported()).as("the new coordinator collects again").isEmpty();
        assertThat(n2.flushReport(List.of(N0, N1)).outcome()).isEqualTo(Outcome.ACCEPTED);
        List<EventId> mayDeliver = List.copyOf(n2.deliverable());
        v.report(N2, Map.of(N0, n2.deliveredOf(N0), N1, n2.deliveredOf(N1)));
        SortedMap<NodeId, SeqSet> agreed = v.decide().orElseThrow();
        assertThat(agreed).containsEntry(N0, n2.deliveredOf(N0)).containsEntry(N1, SeqSet.EMPTY);
        agreed.forEach(n2::decideView);
        if (mayDeliver.isEmpty()) {
            assertThat(n2.deliverAll().delivered()).as("not agreed: dropped at the install").isEmpty();
            assertThat(n2.installView(List.of(N0, N1)).outcome()).isEqualTo(Outcome.ACCEPTED);
            v.installed(N2);
            assertThat(v.flushing()).isEmpty();
            assertThat(v.members()).containsExactly(N2);
            assertThat(n2.state().view()).containsExactly(N2);
            assertThat(n2.state().buf()).isEmpty();
        }
        return mayDeliver;
    }

    /** A restart before the decision: the reports of the old round are dropped, and the set grows. */
    @Test
    void aSuspicionBeforeTheDecisionRestartsWithTheReportsDropped() {
        ViewChange v = new ViewChange(4);
        NodeId n3 = NodeId.of(3);
        assertThat(v.suspect(N1, N0)).isTrue();
        v.report(N2, SeqSet.EMPTY);
        assertThat(v.suspect(N2, N1)).isTrue();
        assertThat(v.reported()).isEmpty();
        assertThat(v.survivors()).containsExactly(N2, n3);
        assertThat(v.decide()).as("nobody reported to the new round").isEmpty();
        v.report(N2, Map.of(N0, SeqSet.EMPTY, N1, SeqSet.EMPTY));
        assertThat(v.decide()).as("n3 has not reported").isEmpty();
        v.report(n3, Map.of(N0, ONE, N1, SeqSet.EMPTY));
        assertThat(v.decide().orElseThrow()).containsEntry(N0, ONE).containsEntry(N1, SeqSet.EMPTY);
        assertThat(v.forwards(n3, N2, N0)).containsExactly(1L);
        assertThat(v.gone()).containsExactly(N0, N1);
        assertThat(v.suspect(N2, N0)).as("a removed node is not suspected again").isFalse();
    }
}
