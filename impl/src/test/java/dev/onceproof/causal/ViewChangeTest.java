package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The view change with flush on the core (specs/causal/CausalMembership.tla): scenarios named after
 * the property they show; the stored traces (causal-removal, causal-false-suspicion, causal-freeze,
 * causal-gc-after-removal) replay the same steps against the spec.
 */
class ViewChangeTest {

    private static final NodeId N0 = NodeId.of(0), N1 = NodeId.of(1), N2 = NodeId.of(2);

    private static CausalNode node(int k, ManualTicker t) {
        return new CausalNode(CausalConfig.of(3, NodeId.of(k), Mode.CAUSAL, 3, 7, 5), t);
    }

    private static CausalMessage data(Step broadcast) {
        return broadcast.sends().get(0).message();
    }

    @Test
    void aFalselySuspectedNodesEventIsRefusedAfterTheViewChange() {
        ManualTicker t = new ManualTicker(0);
        CausalNode n0 = node(0, t), n1 = node(1, t);
        CausalMessage e = data(n0.broadcast(Payload.ofUtf8("late")));
        assertThat(n1.flushReport(N0).outcome()).isEqualTo(Outcome.ACCEPTED);
        n1.decideView(N0, n1.deliveredOf(N0));
        assertThat(n1.installView(N0).outcome()).isEqualTo(Outcome.ACCEPTED);
        Step s = n1.handle(e);
        assertThat(s.refusal()).isEqualTo(Refusal.EXCLUDED);
        assertThat(s.detail()).contains("<<n1,1>>").contains("removed from the view");
        assertThat(n1.state().view()).containsExactly(N1, N2);
        assertThat(n1.flushReport(N0).refusal()).as("never again under its id").isEqualTo(Refusal.EXCLUDED);
    }

    @Test
    void theFreezeHoldsAnEventBackUntilTheDecisionAgreesOnIt() {
        ManualTicker t = new ManualTicker(0);
        CausalNode n0 = node(0, t), n1 = node(1, t);
        CausalMessage e = data(n0.broadcast(Payload.ofUtf8("x")));
        n1.flushReport(N0);
        assertThat(n1.handle(e).delivered()).as("frozen").isEmpty();
        assertThat(n1.deliverable()).isEmpty();
        // Another survivor had delivered it: the union agrees on it, and the decision releases it.
        n1.decideView(N0, new SeqSet(1, new TreeSet<>()));
        assertThat(n1.deliverAll().delivered()).extracting(Event::id).containsExactly(new EventId(N0, 1));
        assertThat(n1.installView(N0).outcome()).isEqualTo(Outcome.ACCEPTED);
    }

    @Test
    void anEventTheFlushDidNotAgreeOnIsDroppedAtTheInstall() {
        ManualTicker t = new ManualTicker(0);
        CausalNode n0 = node(0, t), n1 = node(1, t);
        CausalMessage e = data(n0.broadcast(Payload.ofUtf8("x")));
        n1.flushReport(N0);
        n1.handle(e);
        n1.decideView(N0, SeqSet.EMPTY);
        assertThat(n1.deliverAll().delivered()).isEmpty();
        n1.installView(N0);
        assertThat(n1.state().buf()).isEmpty();
        assertThat(n1.state().vc().get(N0)).isZero();
    }

    @Test
    void theInstallWaitsForEveryAgreedEventAndTheForwardBringsIt() {
        ManualTicker t = new ManualTicker(0);
        CausalNode n0 = node(0, t), n1 = node(1, t), n2 = node(2, t);
        Step b = n0.broadcast(Payload.ofUtf8("x"));
        n1.handle(b.sends().get(0).message()); // n1 delivers it; n2's copy is lost with n0's crash
        ViewChange v = new ViewChange(3);
        assertThat(v.suspect(N1, N0)).isTrue();
        n1.flushReport(N0);
        v.report(N1, n1.deliveredOf(N0));
        n2.flushReport(N0);
        v.report(N2, n2.deliveredOf(N0));
        SeqSet agreed = v.decide().orElseThrow().get(N0);
        n1.decideView(N0, agreed);
        n2.decideView(N0, agreed);
        assertThat(n2.installView(N0).outcome()).as("lacks an agreed event").isEqualTo(Outcome.IGNORED);
        Step fwd = n1.flushForward(N0, N2, v.forwards(N1, N2));
        assertThat(fwd.sends()).hasSize(1);
        n2.handle(fwd.sends().get(0).message());
        assertThat(n2.installView(N0).outcome()).isEqualTo(Outcome.ACCEPTED);
        v.installed(N2);
        n1.installView(N0);
        v.installed(N1);
        assertThat(v.flushing()).isEmpty();
        assertThat(v.members()).containsExactly(N1, N2);
        assertThat(v.suspect(N1, N0)).as("a removed node is not a member to suspect").isFalse();
    }

    @Test
    void theConcurrentNodeHandsReleasedEventsToTheApplication() {
        ManualTicker t = new ManualTicker(0);
        CausalNode n0 = node(0, t);
        List<EventId> app = new ArrayList<>();
        ConcurrentCausalNode n1 = new ConcurrentCausalNode(node(1, t), e -> app.add(e.id()));
        CausalMessage e = data(n0.broadcast(Payload.ofUtf8("x")));
        assertThat(n1.flushReport(N0)).isEqualTo(SeqSet.EMPTY);
        n1.handle(e);
        assertThat(app).isEmpty();
        n1.decideView(N0, new SeqSet(1, new TreeSet<>()));
        assertThat(app).containsExactly(new EventId(N0, 1));
        assertThat(n1.installView(N0).outcome()).isEqualTo(Outcome.ACCEPTED);
    }

    @Test
    void badSeqSetsAndOutOfTurnCallsSayWhat() {
        assertThatThrownBy(() -> new SeqSet(-1, new TreeSet<>())).hasMessageContaining("prefix -1 is negative");
        assertThatThrownBy(() -> new SeqSet(2, new TreeSet<>(List.of(3L))))
                .hasMessageContaining("seq 3 above the prefix 2");
        ViewChange v = new ViewChange(3);
        assertThatThrownBy(() -> v.report(N1, SeqSet.EMPTY)).hasMessageContaining("no flush awaits reports");
        CausalNode n1 = node(1, new ManualTicker(0));
        assertThat(n1.flushReport(N1).refusal()).isEqualTo(Refusal.FROM_SELF);
        assertThat(n1.state().view()).containsExactly(N0, N1, N2);
    }

    @Test
    void unionAndMissingFollowTheSpec() {
        SeqSet a = new SeqSet(2, new TreeSet<>(List.of(5L)));
        SeqSet b = new SeqSet(3, new TreeSet<>());
        assertThat(a.union(b)).isEqualTo(new SeqSet(3, new TreeSet<>(List.of(5L))));
        assertThat(new SeqSet(4, new TreeSet<>()).union(a)).isEqualTo(new SeqSet(5, new TreeSet<>()));
        assertThat(b.missingFrom(a)).containsExactly(5L);
        assertThat(a.missingFrom(b)).containsExactly(3L);
        assertThat(b.subsetOf(a)).isFalse();
        assertThat(new SeqSet(2, new TreeSet<>()).subsetOf(a)).isTrue();
    }
}
