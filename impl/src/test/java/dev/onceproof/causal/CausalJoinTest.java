package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node removed by mistake comes back under a new id (specs/causal/CausalJoin.tla, issue 19 item
 * 3): n0 and n1 are members, n2 is falsely removed, n3 is the spare it comes back as. The joiner's
 * application log is what the donor had delivered (handed) followed by what it delivers itself;
 * {@link #deliveredAgain} is the spec's JoinerSkipsHanded on it, and the core broken through the
 * {@link CausalNode#startPrefix} seam (MutJoinEmptyPrefix) is caught by it. The join is two steps
 * (issue 21): the donor's, then each other member's install; in between that member refuses the
 * joiner's events, and its row of the joiner starts from the handed prefix when it installs (the
 * {@link CausalNode#joinRowStart} seam, MutJoinRowFromDonor, starts it from its row of the donor).
 */
class CausalJoinTest {

    private static final NodeId N0 = NodeId.of(0), N1 = NodeId.of(1), N2 = NodeId.of(2), N3 = NodeId.of(3);

    private static CausalConfig config(int k) {
        return CausalConfig.of(4, NodeId.of(k), Mode.CAUSAL, 3, 7, 5);
    }

    private static CausalNode member(int k, ManualTicker t) {
        CausalNode node = new CausalNode(config(k), t);
        node.spare(N3);
        return node;
    }

    private static CausalMessage to(Step step, NodeId dest) {
        return step.sends().stream().filter(o -> o.to().equals(dest)).findFirst().orElseThrow().message();
    }

    /** The handed ids the joiner delivered again (the spec's JoinerSkipsHanded is: none). */
    private static List<EventId> deliveredAgain(List<EventId> handed, List<EventId> delivered) {
        List<EventId> again = new ArrayList<>(delivered);
        again.retainAll(handed);
        return again;
    }

    /** The scenario up to the join: n0's event e1 delivered by n0 and n1, n2 removed, n0 the donor. */
    private static final class Group {
        final ManualTicker t = new ManualTicker(0);
        final CausalNode n0 = member(0, t), n1 = member(1, t), n2 = member(2, t);
        final Step e1 = n0.broadcast(Payload.ofUtf8("e1"));
        Step e2;
        JoinState handed;

        Group removeN2AndJoin() {
            n1.handle(to(e1, N1));
            // n2 is slow, not crashed: it broadcasts after the survivors reported, nobody delivers it.
            n0.flushReport(N2);
            n1.flushReport(N2);
            e2 = n2.broadcast(Payload.ofUtf8("e2"));
            SeqSet none = n0.deliveredOf(N2);
            n0.decideView(N2, none);
            n1.decideView(N2, none);
            assertThat(n0.installView(N2).outcome()).isEqualTo(Outcome.ACCEPTED);
            assertThat(n1.installView(N2).outcome()).isEqualTo(Outcome.ACCEPTED);
            handed = n0.join(N3);
            assertThat(n1.installJoin(N3, N0, handed.prefix()).outcome()).isEqualTo(Outcome.ACCEPTED);
            return this;
        }
    }

    @Test
    void aFalselyRemovedNodeComesBackUnderANewIdAndDeliversCausallyFromTheDonorsPrefix() {
        Group g = new Group().removeN2AndJoin();
        CausalNode n3 = CausalNode.joining(config(3), g.t, g.handed);
        List<EventId> handed = List.of(new EventId(N0, 1));
        List<EventId> delivered = new ArrayList<>();
        // e1's copy to n3 was on its way: a duplicate now, the application has it from the state.
        n3.handle(to(g.e1, N3)).delivered().forEach(e -> delivered.add(e.id()));
        // The old id stays out: n2's event, agreed by nobody, is refused.
        Step old = n3.handle(to(g.e2, N3));
        assertThat(old.refusal()).isEqualTo(Refusal.EXCLUDED);
        // n1's later event depends on e1, which n3 counts as delivered: delivered at once.
        Step e3 = g.n1.broadcast(Payload.ofUtf8("e3"));
        n3.handle(to(e3, N3)).delivered().forEach(e -> delivered.add(e.id()));
        assertThat(delivered).containsExactly(new EventId(N1, 1));
        assertThat(deliveredAgain(handed, delivered)).isEmpty();
        assertThat(n3.state().view()).containsExactly(N0, N1, N3);
        // The old id never joins again.
        assertThatThrownBy(() -> g.n0.join(N2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("n3").hasMessageContaining("never used twice");
    }

    @Test
    void aJoinerThatStartsFromAnEmptyPrefixDeliversAHandedEventAgain() {
        Group g = new Group().removeN2AndJoin();
        CausalNode broken = new CausalNode(config(3), g.t) {
            @Override
            protected long startPrefix(int k, JoinState s) {
                return 0;
            }
        };
        broken.startFrom(g.handed);
        List<EventId> delivered = new ArrayList<>();
        broken.handle(to(g.e1, N3)).delivered().forEach(e -> delivered.add(e.id()));
        assertThat(deliveredAgain(List.of(new EventId(N0, 1)), delivered)).containsExactly(new EventId(N0, 1));
    }

    @Test
    void theJoinersRowHoldsCollectionUntilItDelivers() {
        Group g = new Group().removeN2AndJoin();
        CausalNode n3 = CausalNode.joining(config(3), g.t, g.handed);
        Step e3 = g.n1.broadcast(Payload.ofUtf8("e3"));
        g.n0.handle(to(e3, N0));
        // n1 knows n0 delivered e3 once n0 says so; n3's row (n1's row of the donor) does not have it.
        g.n1.handle(to(g.n0.sendHeartbeat(), N1));
        g.n1.collectGarbage();
        assertThat(g.n1.held(new EventId(N1, 1))).as("n3 has not delivered it").isNotNull();
        n3.handle(to(e3, N3));
        g.n1.handle(to(n3.sendHeartbeat(), N1));
        g.n1.collectGarbage();
        assertThat(g.n1.held(new EventId(N1, 1))).as("stable in the view with n3").isNull();
    }

    @Test
    void theCoordinatorAdmitsTheSpareAfterTheViewChangeAndNeverTheOldId() {
        ViewChange views = new ViewChange(4);
        views.spare(N3);
        assertThat(views.members()).containsExactlyInAnyOrder(N0, N1, N2);
        assertThat(views.suspect(N0, N2)).isTrue();
        assertThat(views.join(N0, N3)).as("not while the change runs").isFalse();
        views.report(N0, SeqSet.EMPTY);
        views.report(N1, SeqSet.EMPTY);
        assertThat(views.decide()).isPresent();
        views.installed(N0);
        views.installed(N1);
        assertThat(views.flushing()).isEmpty();
        assertThat(views.join(N0, N2)).as("the old id").isFalse();
        assertThat(views.join(N2, N3)).as("a removed donor").isFalse();
        assertThat(views.join(N0, N3)).isTrue();
        assertThat(views.members()).containsExactlyInAnyOrder(N0, N1, N3);
        assertThat(views.join(N0, N3)).as("once").isFalse();
        // n1 has not installed the join: no suspicion starts a change until it has (JSuspect).
        assertThat(views.joinPending()).containsExactly(N1);
        assertThat(views.suspect(N0, N1)).as("n1 has not installed the join").isFalse();
        views.joinInstalled(N1);
        assertThat(views.joinPending()).isEmpty();
        assertThatThrownBy(() -> views.joinInstalled(N1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(N1 + " has no join to install");
        assertThat(views.suspect(N0, N1)).isTrue();
    }

    @Test
    void aMemberThatHasNotInstalledTheJoinRefusesTheJoinersEventsAndRecoversThemAfter() {
        ManualTicker t = new ManualTicker(0);
        CausalNode n0 = member(0, t), n1 = member(1, t);
        JoinState handed = n0.join(N3);
        CausalNode n3 = CausalNode.joining(config(3), t, handed);
        Step e = n3.broadcast(Payload.ofUtf8("from n3"));
        assertThat(n1.handle(to(e, N1)).refusal()).as("before the install").isEqualTo(Refusal.EXCLUDED);
        assertThat(n0.handle(to(e, N0)).delivered()).hasSize(1);
        assertThat(n1.installJoin(N3, N0, handed.prefix()).outcome()).isEqualTo(Outcome.ACCEPTED);
        // n0's next event depends on n3's: n1 finds the gap, and the recovered copy is delivered.
        Step f = n0.broadcast(Payload.ofUtf8("after"));
        n1.handle(to(f, N1));
        assertThat(n1.state().missing()).containsKey(new EventId(N3, 1));
        Step resend = n3.serveRequest(N1, new EventId(N3, 1));
        assertThat(n1.handle(to(resend, N1)).delivered()).extracting(Event::id)
                .containsExactly(new EventId(N3, 1), new EventId(N0, 1));
    }

    /** A member of the two-member group n0, n1 (n2 and n3 spares, so that only their rows count). */
    private static CausalNode pairMember(CausalNode node) {
        node.spare(N2);
        node.spare(N3);
        return node;
    }

    /**
     * After the join n1 broadcasts e, the donor n0 delivers it and says so in a heartbeat, then n1
     * installs the join and collects. Returns whether n1 still holds e (n3 has not delivered it).
     */
    private static boolean lateInstallKeepsTheJoinersEvent(CausalNode n1) {
        ManualTicker t = new ManualTicker(0);
        CausalNode n0 = pairMember(new CausalNode(config(0), t));
        JoinState handed = n0.join(N3);
        CausalNode n3 = CausalNode.joining(config(3), t, handed);
        Step e = n1.broadcast(Payload.ofUtf8("e"));
        n0.handle(to(e, N0));
        n1.handle(to(n0.sendHeartbeat(), N1));
        assertThat(n1.collectGarbage()).as("n3 is not in n1's view yet: stable over n0 and n1").isEqualTo(1);
        Step f = n1.broadcast(Payload.ofUtf8("f"));
        n0.handle(to(f, N0));
        n1.handle(to(n0.sendHeartbeat(), N1));
        assertThat(n1.installJoin(N3, N0, handed.prefix()).outcome()).isEqualTo(Outcome.ACCEPTED);
        n1.collectGarbage();
        assertThat(n3.prefixClock().get(1)).isZero();
        return n1.held(new EventId(N1, 2)) != null;
    }

    @Test
    void aLateInstallStartsTheJoinersRowFromTheHandedPrefixNotFromTheDonorsRowNow() {
        ManualTicker t = new ManualTicker(0);
        CausalNode n1 = pairMember(new CausalNode(config(1), t));
        assertThat(lateInstallKeepsTheJoinersEvent(n1)).as("n3 lacks f: kept").isTrue();
        assertThat(n1.state().known().get(N3).get(1)).as("n3's row at n1: the handed prefix").isZero();
        // The core before issue 21 (MutJoinRowFromDonor): n3's row from n1's row of the donor now.
        CausalNode broken = pairMember(new CausalNode(config(1), t) {
            @Override
            protected VectorClock joinRowStart(NodeId donor, VectorClock start) {
                return state().known().get(donor);
            }
        });
        assertThat(lateInstallKeepsTheJoinersEvent(broken)).as("collected though n3 lacks it").isFalse();
    }
}
