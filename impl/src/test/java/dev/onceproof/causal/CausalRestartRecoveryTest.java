package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link Recovery#RESTART}, the paper's recovery with L240 read literally ("when the message B
 * arrives at N3, it is seen that the message A is not there yet. At this point, a waiting time
 * timer (w) is started"): after the request and its single retry are lost, the next message that
 * shows the gap starts the wait again, where {@link Recovery#FAITHFUL} has given up for good.
 */
class CausalRestartRecoveryTest {

    private static final long W = 10;
    private static final long RTO = 30;

    private static int find(Group g, int to, EventId d) {
        for (int i = 0; i < g.net.size(); i++) {
            Outgoing o = g.net.peek(i);
            if (o.to().index() == to && o.message() instanceof CausalMessage.Data data && data.event().id().equals(d)) {
                return i;
            }
        }
        throw new AssertionError("no copy of " + d + " in flight to n" + (to + 1) + ": " + g.net);
    }

    private static boolean requestInFlight(Group g) {
        return g.net.messages().stream().anyMatch(o -> o.message() instanceof CausalMessage.Request);
    }

    /** N3 misses A (from N2); its request and the retry are lost; then N1's next event shows the gap again. */
    private static Group requestAndRetryLost(Recovery recovery) {
        Group g = new Group(3, Mode.CAUSAL, W, RTO, 0, (c, t) -> new CausalNode(c.withRecovery(recovery), t));
        EventId a = EventId.of(1, 1);
        g.broadcast(1);                               // A = <<n2,1>>
        g.deliver(find(g, 0, a));                     // A reaches N1
        g.lose(find(g, 2, a));                        // A's copy to N3 is lost
        g.broadcast(0);                               // B = <<n1,1>> depends on A
        g.deliver(find(g, 2, EventId.of(0, 1)));      // N3 sees A missing and waits w
        g.advance(W);
        assertThat(requestInFlight(g)).isTrue();
        g.net.clear();                                // the request is lost
        g.advance(RTO);
        assertThat(requestInFlight(g)).isTrue();
        g.net.clear();                                // and so is the single retry
        assertThat(g.nodes[2].state().missing().get(a).phase()).isEqualTo(Phase.RETRIED);
        g.broadcast(0);                               // C = <<n1,2>> shows the gap again
        g.deliver(find(g, 2, EventId.of(0, 2)));
        return g;
    }

    @Test
    void aMessageShowingTheGapStartsTheWaitAgainAfterTheRetryRanOut() {
        Group g = requestAndRetryLost(Recovery.RESTART);
        assertThat(g.nodes[2].state().missing().get(EventId.of(1, 1)).phase()).isEqualTo(Phase.WAITING);
        g.net.clear();
        g.advance(W);
        assertThat(requestInFlight(g)).isTrue();
    }

    @Test
    void asPrintedTheNodeHasGivenUpForGood() {
        Group g = requestAndRetryLost(Recovery.FAITHFUL);
        assertThat(g.nodes[2].state().missing().get(EventId.of(1, 1)).phase()).isEqualTo(Phase.RETRIED);
        g.net.clear();
        g.advance(W);
        g.advance(RTO);
        assertThat(requestInFlight(g)).isFalse();
    }
}
