package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.runtime.DeliveryAudit;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scenario tests of the core, each named after the property it shows; paper sentences cited.
 * The network is {@link Group}: the test chooses which datagram arrives, is lost or is duplicated.
 */
class CausalNodeTest {

    private static final long W = 10;
    private static final long RTO = 30;

    private static EventId id(int origin, long seq) {
        return EventId.of(origin, seq);
    }

    /** Index of the datagram in flight to {@code to} carrying data or a resend of {@code d}. */
    private static int find(Group g, int to, EventId d) {
        for (int i = 0; i < g.net.size(); i++) {
            Outgoing o = g.net.peek(i);
            if (o.to().index() == to && o.message() instanceof CausalMessage.Data data && data.event().id().equals(d)) {
                return i;
            }
            if (o.to().index() == to && o.message() instanceof CausalMessage.Resend r && r.event().id().equals(d)) {
                return i;
            }
        }
        throw new AssertionError("no copy of " + d + " in flight to n" + (to + 1) + ": " + g.net);
    }

    /** Paper Fig. 1: B depends on A (A delivered at N1 before B was issued); N3 gets B first. */
    private static Group figureOne(Mode mode) {
        Group g = new Group(3, mode, W, RTO, 0);
        g.broadcast(1);                                // A = <<n2,1>>
        g.deliver(find(g, 0, id(1, 1)));               // A reaches N1
        g.broadcast(0);                                // B = <<n1,1>>, vc [1,1,0]
        g.deliver(find(g, 2, id(0, 1)));               // B reaches N3 first
        return g;
    }

    @Test
    void causalModeWaitsForTheDependency() {
        Group g = figureOne(Mode.CAUSAL);
        CausalState s = g.nodes[2].state();
        assertThat(g.logs.get(NodeId.of(2))).isEmpty();
        assertThat(s.buf()).containsOnlyKeys(id(0, 1));
        assertThat(s.missing().get(id(1, 1)).phase()).isEqualTo(Phase.WAITING);
        assertThat(s.missing().get(id(1, 1)).holders()).containsExactly(NodeId.of(0), NodeId.of(1));
        assertThat(s.missing().get(id(1, 1)).asked()).isNull();
        g.deliver(find(g, 2, id(1, 1)));              // green arrow: A arrives before w runs out
        assertThat(g.logs.get(NodeId.of(2))).containsExactly(id(1, 1), id(0, 1));
        assertThat(g.nodes[2].state().missing()).isEmpty();
        assertThat(g.nodes[2].counters().get(Count.REQUEST_SENT)).isZero();
    }

    @Test
    void fifoModeDoesNotWaitForOtherSenders() {
        Group g = figureOne(Mode.FIFO);
        assertThat(g.logs.get(NodeId.of(2))).containsExactly(id(0, 1));
        assertThat(g.nodes[2].state().missing()).isEmpty();
    }

    @Test
    void unorderedModeDeliversAtOnceButStillDetectsTheGap() {
        Group g = figureOne(Mode.UNORDERED);
        assertThat(g.logs.get(NodeId.of(2))).containsExactly(id(0, 1));
        assertThat(g.nodes[2].state().missing().get(id(1, 1)).phase()).isEqualTo(Phase.WAITING);
        assertThat(g.nodes[2].state().vc()).isEqualTo(VectorClock.of(1, 0, 0));
    }

    /** Paper 5.1: after w, "N3 contacts N2"; the red outcome: the late original is a duplicate. */
    @Test
    void recoveredCopyIsDeliveredOnceWhenTheOriginalArrivesLate() {
        Group g = figureOne(Mode.CAUSAL);
        int original = find(g, 2, id(1, 1));
        Outgoing late = g.net.peek(original);
        g.net.lose(original);
        g.advance(W);
        assertThat(g.net.messages()).anySatisfy(o -> assertThat(o).isEqualTo(
                new Outgoing(NodeId.of(1), new CausalMessage.Request(NodeId.of(2), id(1, 1)))));
        assertThat(g.nodes[2].state().missing().get(id(1, 1)).phase()).isEqualTo(Phase.ASKED);
        assertThat(g.nodes[2].state().missing().get(id(1, 1)).asked()).isEqualTo(NodeId.of(1));
        g.settle(1, 1);                                // request served, resend delivered
        assertThat(g.logs.get(NodeId.of(2))).containsExactly(id(1, 1), id(0, 1));
        Step dup = g.nodes[2].handle(late.message());
        assertThat(dup.outcome()).isEqualTo(Outcome.DUPLICATE);
        assertThat(dup.delivered()).isEmpty();
        assertThat(g.nodes[2].counters().get(Count.DUPLICATE)).isEqualTo(1);
    }

    /** Paper 5.3: after RTO, ask "another node that knows this message" (N1), and keep cycling. */
    @Test
    void retriesCycleThroughKnownHoldersWhenTheOriginHasCrashed() {
        Group g = figureOne(Mode.CAUSAL);
        g.lose(find(g, 2, id(1, 1)));
        g.crash(1);
        g.advance(W);
        assertThat(lastRequestTarget(g)).isEqualTo(NodeId.of(1));
        g.net.clear();                                 // the crashed origin never answers
        g.advance(RTO);
        assertThat(lastRequestTarget(g)).isEqualTo(NodeId.of(0));
        g.net.clear();                                 // that request is lost too
        g.advance(RTO);
        assertThat(lastRequestTarget(g)).isEqualTo(NodeId.of(1));
        g.advance(RTO);
        g.settle(1, 1);
        assertThat(g.logs.get(NodeId.of(2))).containsExactly(id(1, 1), id(0, 1));
        assertThat(DeliveryAudit.check(Mode.CAUSAL, g.logs, g.correct()).ok()).isTrue();
    }

    private static NodeId lastRequestTarget(Group g) {
        for (int i = g.net.size() - 1; i >= 0; i--) {
            if (g.net.peek(i).message() instanceof CausalMessage.Request) {
                return g.net.peek(i).to();
            }
        }
        throw new AssertionError("no request in flight: " + g.net);
    }

    /** Paper 5.3 as written: one retry after RTO, then the node gives up (phase "retried"). */
    @Test
    void faithfulRecoveryRetriesOnceOnly() {
        Group g = new Group(3, Mode.CAUSAL, W, RTO, 0, (c, t) -> new CausalNode(c.withRecovery(Recovery.FAITHFUL), t));
        g.broadcast(1);
        g.deliver(find(g, 0, id(1, 1)));
        g.broadcast(0);
        g.deliver(find(g, 2, id(0, 1)));
        g.lose(find(g, 2, id(1, 1)));
        g.crash(1);
        g.crash(0);                                    // every holder gone: requests go unanswered
        g.advance(W);
        g.net.clear();
        g.advance(RTO);
        assertThat(g.nodes[2].state().missing().get(id(1, 1)).phase()).isEqualTo(Phase.RETRIED);
        g.net.clear();
        g.advance(RTO);
        g.advance(RTO);
        assertThat(g.net.isEmpty()).isTrue();
        assertThat(g.nodes[2].nextDeadline()).isEmpty();
        assertThat(g.nodes[2].counters().get(Count.REQUEST_RETRY)).isEqualTo(1);
    }

    /** Reading notes Z24: the paper never notices a lost last event; the heartbeat does. */
    @Test
    void heartbeatRevealsALostLastEvent() {
        Group paper = new Group(2, Mode.CAUSAL, W, RTO, 0);
        paper.broadcast(0);
        paper.lose(0);
        paper.settle(RTO, 10);
        assertThat(paper.logs.get(NodeId.of(1))).isEmpty();

        Group live = new Group(2, Mode.CAUSAL, W, RTO, 5);
        live.broadcast(0);
        live.lose(0);
        live.settle(5, 20);
        assertThat(live.logs.get(NodeId.of(1))).containsExactly(id(0, 1));
    }

    @Test
    void stableEventsAreCollectedAndTheStoreBoundRefusesBroadcasts() {
        Group g = new Group(2, Mode.CAUSAL, W, RTO, 5);
        CausalNode a = g.nodes[0];
        g.nodes[0] = new CausalNode(a.config().withBounds(4, 2, 4), g.ticker);
        g.broadcast(0);
        g.broadcast(0);
        Step refused = g.broadcast(0);
        assertThat(refused.refusal()).isEqualTo(Refusal.STORE_FULL);
        assertThat(refused.detail()).contains("maxStored");
        assertThat(g.nodes[0].state().store()).hasSize(2);
        g.settle(5, 4);                                // n2 delivers, its heartbeat tells n1
        assertThat(g.nodes[0].state().store()).isEmpty();
        assertThat(g.broadcast(0).outcome()).isEqualTo(Outcome.ACCEPTED);
    }

    @Test
    void bufferBoundRefusesAndTheEventIsRecoveredLater() {
        Group g = new Group(2, Mode.CAUSAL, W, RTO, 5);
        g.nodes[1] = new CausalNode(g.nodes[1].config().withBounds(1, 16, 16), g.ticker);
        g.broadcast(0);
        g.broadcast(0);
        g.broadcast(0);
        g.lose(0);                                     // (n1,1) lost: (n1,2) is buffered, (n1,3) refused
        g.deliver(0);
        Step full = g.deliver(0);
        assertThat(full.refusal()).isEqualTo(Refusal.BUFFER_FULL);
        g.settle(5, 20);
        assertThat(g.logs.get(NodeId.of(1))).containsExactly(id(0, 1), id(0, 2), id(0, 3));
    }

    @Test
    void badInputIsACountedRefusalThatChangesNothing() {
        Group g = figureOne(Mode.CAUSAL);
        CausalNode n3 = g.nodes[2];
        CausalState before = n3.state();
        Payload p = Payload.ofUtf8("x");
        List<CausalMessage> bad = List.of(
                new CausalMessage.Data(new Event(id(7, 1), VectorClock.of(0, 0, 0), p)),
                new CausalMessage.Data(new Event(id(1, 2), VectorClock.of(0, 2), p)),
                new CausalMessage.Data(new Event(id(1, 2), VectorClock.of(0, 1, 0), p)),
                new CausalMessage.Data(new Event(id(1, 2), VectorClock.of(0, 2, 5), p)),
                new CausalMessage.Data(new Event(id(2, 1), VectorClock.of(0, 0, 1), p)),
                new CausalMessage.Request(NodeId.of(0), id(1, 9)),
                new CausalMessage.Request(NodeId.of(0), id(5, 1)),
                new CausalMessage.Heartbeat(NodeId.of(9), VectorClock.of(0, 0, 0)),
                new CausalMessage.Heartbeat(NodeId.of(0), VectorClock.of(0, 0)));
        List<Refusal> expected = List.of(Refusal.UNKNOWN_NODE, Refusal.VECTOR_SIZE, Refusal.INCONSISTENT_VECTOR,
                Refusal.FUTURE_OWN_EVENT, Refusal.FROM_SELF, Refusal.UNKNOWN_EVENT, Refusal.UNKNOWN_NODE,
                Refusal.UNKNOWN_NODE, Refusal.VECTOR_SIZE);
        for (int i = 0; i < bad.size(); i++) {
            Step s = n3.handle(bad.get(i));
            assertThat(s.refusal()).as(bad.get(i).toString()).isEqualTo(expected.get(i));
            assertThat(s.detail()).isNotEmpty();
            assertThat(s.sends()).isEmpty();
        }
        assertThat(n3.state()).isEqualTo(before);
        assertThat(n3.counters().refusedTotal()).isEqualTo(bad.size());
    }

    @Test
    void aCrashedNodeRefusesEverything() {
        Group g = figureOne(Mode.CAUSAL);
        g.crash(2);
        CausalState before = g.nodes[2].state();
        assertThat(g.nodes[2].broadcast(Payload.EMPTY).refusal()).isEqualTo(Refusal.CRASHED);
        assertThat(g.deliver(find(g, 2, id(1, 1))).refusal()).isEqualTo(Refusal.CRASHED);
        assertThat(g.nodes[2].poll().sends()).isEmpty();
        assertThat(g.nodes[2].state()).isEqualTo(before);
    }
}
