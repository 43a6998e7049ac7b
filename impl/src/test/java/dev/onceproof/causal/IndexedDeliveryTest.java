package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.BiFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The indexed {@link CausalNode#deliverAll} (a delivery wakes only the events filed under it) makes
 * the same deliveries in the same order as the rescanning delivery it replaced
 * ({@link CausalNode#deliverAllByRescan}): two groups run one schedule (reordering, loss,
 * duplication, a crash, timers), one on each delivery, and every node's delivery log, abstract
 * state and the datagrams in flight must be equal. The control shows the comparison sees a
 * delivery order that is causal but not the pass order.
 */
class IndexedDeliveryTest {

    private static final int N = 4;

    /** The old delivery, through its seam. */
    static final class Rescanning extends CausalNode {
        Rescanning(CausalConfig c, Ticker t) {
            super(c, t);
        }

        @Override
        public Step deliverAll() {
            return deliverAllByRescan();
        }
    }

    /** Control: delivers the least deliverable id first, again and again; causal, but not pass order. */
    static final class LeastIdFirst extends CausalNode {
        LeastIdFirst(CausalConfig c, Ticker t) {
            super(c, t);
        }

        @Override
        public Step deliverAll() {
            Step out = Step.of(Outcome.IGNORED);
            for (List<EventId> d = deliverable(); !d.isEmpty(); d = deliverable()) {
                out = out.then(deliver(d.get(0)));
            }
            return out;
        }
    }

    @Provide
    Arbitrary<List<CausalScheduleProperties.Action>> schedules() {
        return Combinators.combine(Arbitraries.integers().between(0, 9), Arbitraries.integers().between(0, 99))
                .as(CausalScheduleProperties.Action::new).list().ofMinSize(20).ofMaxSize(120);
    }

    @Property(tries = 200)
    void causalIndexedDeliveryIsTheRescan(@ForAll("schedules") List<CausalScheduleProperties.Action> schedule) {
        assertThat(differs(Mode.CAUSAL, schedule, Rescanning::new)).isNull();
    }

    @Property(tries = 100)
    void fifoIndexedDeliveryIsTheRescan(@ForAll("schedules") List<CausalScheduleProperties.Action> schedule) {
        assertThat(differs(Mode.FIFO, schedule, Rescanning::new)).isNull();
    }

    @Property(tries = 50)
    void unorderedIndexedDeliveryIsTheRescan(@ForAll("schedules") List<CausalScheduleProperties.Action> schedule) {
        assertThat(differs(Mode.UNORDERED, schedule, Rescanning::new)).isNull();
    }

    @Test
    void controlADifferentCausalOrderIsSeen() {
        var rnd = new java.util.Random(19);
        int caught = 0;
        for (int t = 0; t < 300 && caught == 0; t++) {
            List<CausalScheduleProperties.Action> s = new java.util.ArrayList<>();
            for (int i = 0; i < 120; i++) {
                s.add(new CausalScheduleProperties.Action(rnd.nextInt(10), rnd.nextInt(100)));
            }
            if (differs(Mode.CAUSAL, s, LeastIdFirst::new) != null) {
                caught++;
            }
        }
        assertThat(caught).as("a least-id-first delivery differs from the pass order on some schedule").isPositive();
    }

    /** Null if both groups end alike after the schedule and a fair end, else what differs. */
    private static String differs(Mode mode, List<CausalScheduleProperties.Action> schedule,
            BiFunction<CausalConfig, Ticker, CausalNode> other) {
        Group a = new Group(N, mode, 3, 7, 5);
        Group b = new Group(N, mode, 3, 7, 5, other);
        run(a, schedule);
        run(b, schedule);
        String d = compare(a, b);
        if (d != null) {
            return d;
        }
        a.settle(5, 20);
        b.settle(5, 20);
        return compare(a, b);
    }

    private static void run(Group g, List<CausalScheduleProperties.Action> schedule) {
        // The group's schedule with N nodes: as CausalScheduleProperties runs it, crashes allowed.
        CausalScheduleProperties.run(g, schedule, true);
    }

    private static String compare(Group a, Group b) {
        if (!a.logs.equals(b.logs)) {
            return "logs " + a.logs + " vs " + b.logs;
        }
        if (!a.net.messages().equals(b.net.messages())) {
            return "datagrams in flight differ";
        }
        for (int k = 0; k < N; k++) {
            if (!a.nodes[k].state().equals(b.nodes[k].state())) {
                return "node " + k + ": " + a.nodes[k].state() + " vs " + b.nodes[k].state();
            }
        }
        return null;
    }
}
