package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.runtime.DeliveryAudit;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The schedule checks of {@link CausalScheduleProperties} must be able to fail: each broken core
 * below (one safeguard removed through a seam of {@link CausalNode}) runs the same kind of seeded
 * random schedules, and the delivery audit must find the violation the spec's mutant shows.
 */
class BrokenCoresAreCaughtTest {

    private static final int SCHEDULES = 300;

    /** Delivers without waiting for dependencies (spec mutant: no causal guard). */
    static final class NoWait extends CausalNode {
        NoWait(CausalConfig c, Ticker t) {
            super(c, t);
        }

        @Override
        protected boolean deliverable(Event e) {
            return true;
        }
    }

    /**
     * Delivers on receipt (as the unordered mode does) but judges duplicates by the delivered prefix
     * only, so an event delivered out of order is delivered again when its copy comes back (spec
     * mutant: a recovered copy delivered again when the original arrives).
     */
    static final class DuplicateCheckByPrefixOnly extends CausalNode {
        DuplicateCheckByPrefixOnly(CausalConfig c, Ticker t) {
            super(c, t);
        }

        @Override
        protected boolean has(EventId d) {
            return state().vc().get(d.origin()) >= d.seq();
        }

        @Override
        protected boolean deliverable(Event e) {
            return true;
        }
    }

    /** Recovery that only ever asks the origin (eventual delivery fails once it crashes). */
    static final class AsksOriginOnly extends CausalNode {
        AsksOriginOnly(CausalConfig c, Ticker t) {
            super(c, t);
        }

        @Override
        protected NodeId retryTarget(EventId d, NavigableSet<NodeId> holders, NodeId asked) {
            return d.origin();
        }
    }

    @Test
    void deliveryWithoutWaitingBreaksCausalOrder() {
        assertThat(firstCaught(NoWait::new, false, r -> r.causal() > 0)).isNotNegative();
    }

    @Test
    void forgettingBufferedCopiesDeliversTwice() {
        assertThat(firstCaught(DuplicateCheckByPrefixOnly::new, false, r -> r.duplicates() > 0)).isNotNegative();
    }

    @Test
    void askingOnlyTheOriginLosesEventsOfACrashedOrigin() {
        assertThat(firstCaught(AsksOriginOnly::new, true, r -> r.incomplete() > 0)).isNotNegative();
    }

    @Test
    void theRealCorePassesTheSameSchedules() {
        assertThat(firstCaught(CausalNode::new, true, r -> !r.ok())).isNegative();
    }

    /** The first seed whose schedule, then a fair end, the audit flags; -1 if none. */
    private static int firstCaught(BiFunction<CausalConfig, Ticker, CausalNode> make, boolean crash,
            java.util.function.Predicate<DeliveryAudit.Result> caught) {
        for (int seed = 0; seed < SCHEDULES; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            List<CausalScheduleProperties.Action> schedule = new ArrayList<>();
            for (int i = 0, len = 5 + r.nextInt(56); i < len; i++) {
                schedule.add(new CausalScheduleProperties.Action(r.nextInt(10), r.nextInt(100)));
            }
            Group g = new Group(3, Mode.CAUSAL, 3, 7, 5, make);
            CausalScheduleProperties.run(g, schedule, crash);
            g.settle(5, 40);
            if (caught.test(DeliveryAudit.check(Mode.CAUSAL, g.logs, g.correct()))) {
                System.out.println("caught with schedule seed " + seed + ": "
                        + DeliveryAudit.check(Mode.CAUSAL, g.logs, g.correct()).violations().get(0));
                return seed;
            }
        }
        return -1;
    }
}
