package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.runtime.DeliveryAudit;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Schedules chosen by jqwik over a three-node group: broadcasts, deliveries of any datagram in
 * flight (reordering), losses, duplications, a crash, and time passing (timers w, RTO, heartbeat).
 * Safety on every schedule: causal order (FIFO in FIFO mode) and once, at every node, crashed
 * ones up to their crash (spec CausalOrder, FIFOOrder, NoDuplicateDelivery, NoCreation). Liveness
 * on every schedule followed by a fair end (everything in flight arrives, timers run): every event
 * of a correct sender reaches every correct node, and correct nodes agree on the crashed node's
 * events (spec EventualDelivery, Agreement). The audit reads the delivery logs only.
 */
class CausalScheduleProperties {

    /** One scheduling decision; {@code arg} picks the node or the datagram (modulo what exists). */
    record Action(int kind, int arg) {
    }

    @Provide
    Arbitrary<List<Action>> schedules() {
        Arbitrary<Action> a = Combinators.combine(Arbitraries.integers().between(0, 9), Arbitraries.integers().between(0, 99))
                .as(Action::new);
        return a.list().ofMinSize(5).ofMaxSize(60);
    }

    @Property(tries = 300)
    void causalModeNeverBreaksOrderOrDeliversTwiceAndAFairEndDeliversEverything(
            @ForAll("schedules") List<Action> schedule, @ForAll @IntRange(min = 0, max = 1) int faulty) {
        check(Mode.CAUSAL, schedule, faulty == 1);
    }

    @Property(tries = 150)
    void fifoModeTheSame(@ForAll("schedules") List<Action> schedule, @ForAll @IntRange(min = 0, max = 1) int faulty) {
        check(Mode.FIFO, schedule, faulty == 1);
    }

    private static void check(Mode mode, List<Action> schedule, boolean mayCrash) {
        Group g = new Group(3, mode, 3, 7, 5);
        run(g, schedule, mayCrash);
        DeliveryAudit.Result safe = DeliveryAudit.check(mode, g.logs, g.correct());
        assertThat(safe.duplicates() + safe.forged() + safe.fifo() + safe.causal()).as("%s", safe.violations()).isZero();
        g.settle(5, 40);
        DeliveryAudit.Result end = DeliveryAudit.check(mode, g.logs, g.correct());
        assertThat(end.violations()).isEmpty();
        assertThat(end.ok()).isTrue();
        // Agreement on the crashed node's events (its store died with it; survivors serve them).
        List<List<EventId>> ofCrashed = g.correct().stream().map(k -> g.logs.get(k).stream()
                .filter(e -> g.crashed.contains(e.origin())).sorted().toList()).toList();
        assertThat(ofCrashed).allSatisfy(l -> assertThat(l).isEqualTo(ofCrashed.get(0)));
    }

    static void run(Group g, List<Action> schedule, boolean mayCrash) {
        for (Action a : schedule) {
            int k = a.arg() % g.nodes.length;
            switch (a.kind()) {
                case 0, 1 -> {
                    if (!g.crashed.contains(NodeId.of(k))) {
                        g.broadcast(k);
                    }
                }
                case 2, 3, 4 -> {
                    if (!g.net.isEmpty()) {
                        g.deliver(a.arg() % g.net.size());
                    }
                }
                case 5 -> {
                    if (!g.net.isEmpty()) {
                        g.lose(a.arg() % g.net.size());
                    }
                }
                case 6 -> {
                    if (!g.net.isEmpty()) {
                        g.duplicate(a.arg() % g.net.size());
                    }
                }
                case 7 -> {
                    if (mayCrash && g.crashed.isEmpty()) {
                        g.crash(k);
                    }
                }
                default -> g.advance(1 + a.arg() % 6);
            }
        }
    }
}
