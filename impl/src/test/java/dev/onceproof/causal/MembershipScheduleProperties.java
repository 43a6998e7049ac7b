package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.CausalScheduleProperties.Action;
import dev.onceproof.causal.runtime.DeliveryAudit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The view change with flush (specs/causal/CausalMembership.tla) on jqwik schedules over a
 * three-node group: node n0 may crash and may be suspected at any point, falsely too; the steps of
 * the view change (suspicion, each survivor's report, the decision, the forwards, each install)
 * interleave with broadcasts, deliveries in any order, losses, duplications and time. After a fair
 * end that finishes the view change: the survivors' deliveries keep causal order and once
 * (CausalOrder, NoDuplicateDelivery), both delivered exactly the agreed events of the removed node
 * (RemovedAgreement, ExcludedNotDelivered) and every event of each other, and their stores are
 * empty: collection went on past the removed row (GcContinues). A core without the freeze is
 * caught on the same kind of schedules (the control).
 */
class MembershipScheduleProperties {

    private static final NodeId X = NodeId.of(0);

    @Provide
    Arbitrary<List<Action>> schedules() {
        Arbitrary<Action> a = Combinators.combine(Arbitraries.integers().between(0, 10), Arbitraries.integers().between(0, 99))
                .as(Action::new);
        return a.list().ofMinSize(5).ofMaxSize(60);
    }

    @Property(tries = 200)
    void survivorsAgreeOnTheRemovedNodeAndCollectionGoesOn(@ForAll("schedules") List<Action> schedule) {
        assertThat(violations(CausalNode::new, schedule)).isEmpty();
    }

    @Test
    void aCoreWithoutTheFreezeIsCaught() {
        int caught = 0;
        for (int seed = 0; seed < 100; seed++) {
            List<Action> schedule = random(seed);
            assertThat(violations(CausalNode::new, schedule)).as("real core, seed %d", seed).isEmpty();
            caught += violations(NoFreeze::new, schedule).isEmpty() ? 0 : 1;
        }
        System.out.println("core without the freeze caught on " + caught + " of 100 schedules");
        assertThat(caught).as("schedules on which the core without the freeze is caught").isPositive();
    }

    /** Keeps delivering the suspect's events after its report (spec mutant MutNoFreeze). */
    static final class NoFreeze extends CausalNode {
        NoFreeze(CausalConfig c, Ticker t) {
            super(c, t);
        }

        @Override
        protected boolean heldBack(Event e) {
            return false;
        }
    }

    static List<Action> random(int seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Action> out = new ArrayList<>();
        for (int i = 5 + r.nextInt(56); i > 0; i--) {
            out.add(new Action(r.nextInt(11), r.nextInt(100)));
        }
        return out;
    }

    /** Runs the schedule and a fair end; the violated properties, empty if none. */
    static List<String> violations(BiFunction<CausalConfig, Ticker, CausalNode> f, List<Action> schedule) {
        return violations(f, schedule, () -> dev.onceproof.steplog.StepLog.OFF);
    }

    /** As above, the coordinator logging its steps to the log {@code coordinator} opens once the nodes exist. */
    static List<String> violations(BiFunction<CausalConfig, Ticker, CausalNode> f, List<Action> schedule,
            java.util.function.Supplier<dev.onceproof.steplog.StepLog> coordinator) {
        Group g = new Group(3, Mode.CAUSAL, 3, 7, 5, f);
        Flush flush = new Flush(g);
        flush.views.logSteps(coordinator.get());
        for (Action a : schedule) {
            switch (a.kind()) {
                case 0, 1 -> {
                    int k = a.arg() % 3;
                    if (!g.crashed.contains(NodeId.of(k))) {
                        g.broadcast(k);
                    }
                }
                case 2, 3 -> {
                    if (!g.net.isEmpty()) {
                        g.deliver(a.arg() % g.net.size());
                    }
                }
                case 4 -> {
                    if (!g.net.isEmpty()) {
                        g.lose(a.arg() % g.net.size());
                    }
                }
                case 5 -> {
                    if (!g.net.isEmpty()) {
                        g.duplicate(a.arg() % g.net.size());
                    }
                }
                case 6 -> {
                    if (g.crashed.isEmpty() && a.arg() % 3 == 0) {
                        g.crash(0);
                    }
                }
                case 7, 8 -> flush.step(1 + a.arg() % 2);
                default -> g.advance(1 + a.arg() % 6);
            }
        }
        // A fair end: a crashed n0 is eventually suspected (completeness); the view change finishes.
        if (g.crashed.contains(X)) {
            flush.step(1);
        }
        for (int r = 0; r < 40; r++) {
            while (flush.step(1)) {
                // every step the view change can take now
            }
            g.settle(5, 2);
        }
        return check(g, flush);
    }

    private static List<String> check(Group g, Flush flush) {
        List<String> out = new ArrayList<>();
        Set<NodeId> survivors = Set.of(NodeId.of(1), NodeId.of(2));
        DeliveryAudit.Result audit = DeliveryAudit.check(Mode.CAUSAL, g.logs, survivors);
        if (!audit.orderOk() || !audit.onceOk()) {
            out.add("order or once: " + audit.violations());
        }
        if (flush.started && g.nodes[1].state().view().contains(X)) {
            out.add("the view change did not end: n1's view " + g.nodes[1].state().view());
        }
        for (NodeId s : survivors) {
            List<EventId> ofX = g.logs.get(s).stream().filter(e -> e.origin().equals(X)).sorted().toList();
            if (flush.started) {
                List<EventId> agreed = flush.views.agreedOf(X).seqs().stream().map(q -> new EventId(X, q)).toList();
                if (!ofX.equals(agreed)) {
                    out.add(s + " delivered " + ofX + " of n0, the flush agreed on " + agreed);
                }
            }
            for (NodeId o : survivors) {
                long sent = g.nodes[o.index()].state().vc().get(o);
                long got = g.logs.get(s).stream().filter(e -> e.origin().equals(o)).count();
                if (got != sent) {
                    out.add(s + " delivered " + got + " of " + o + "'s " + sent + " events");
                }
            }
            if (!g.nodes[s.index()].state().store().isEmpty()) {
                out.add(s + " still stores " + g.nodes[s.index()].state().store().keySet());
            }
        }
        return out;
    }

    /** Drives the view change removing n0 through the core calls and ViewChange, one step per call. */
    static final class Flush {
        final Group g;
        final ViewChange views = new ViewChange(3);
        boolean started;
        private boolean decided;
        private final Set<NodeId> installed = new HashSet<>();

        Flush(Group g) {
            this.g = g;
        }

        /** One step of the view change, the next one due; false if none can be taken now. */
        boolean step(int by) {
            if (!started) {
                started = views.suspect(NodeId.of(by), X); // a false suspicion if n0 is up
                return started;
            }
            if (installed.size() == 2) {
                return false;
            }
            for (NodeId s : views.survivors()) {
                if (!decided && !views.reported().contains(s)) {
                    g.apply(s.index(), g.nodes[s.index()].flushReport(X));
                    views.report(s, g.nodes[s.index()].deliveredOf(X));
                    return true;
                }
            }
            if (!decided) {
                Optional<SeqSet> seqs = views.decide().map(d -> d.get(X));
                seqs.ifPresent(q -> views.members().forEach(s -> g.nodes[s.index()].decideView(X, q)));
                decided = seqs.isPresent();
                g.apply(1, g.nodes[1].deliverAll());
                g.apply(2, g.nodes[2].deliverAll());
                return decided;
            }
            boolean progress = false;
            for (NodeId s : views.members()) {
                if (!installed.contains(s) && g.nodes[s.index()].installView(X).outcome() == Outcome.ACCEPTED) {
                    installed.add(s);
                    views.installed(s);
                    progress = true;
                }
            }
            if (!progress) {
                // Forward again what a survivor still lacks (a forwarded copy may have been lost).
                for (NodeId j : views.members()) {
                    for (NodeId i : views.members()) {
                        if (!i.equals(j) && !installed.contains(i)) {
                            g.apply(j.index(), g.nodes[j.index()].flushForward(X, i, views.forwards(j, i)));
                        }
                    }
                }
            }
            return progress;
        }
    }
}
