package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Strategy 4 with its syncs handled as PurgeSync ({@code recvPurgeSync}) over {@link GatherWorld}'s
 * network, which delays, reorders, duplicates and loses them (within T_e): the random schedules of
 * {@link GatherProperties}, so a sync built before a note existed may land after the note was
 * delivered (issue 10). Under aDeliver no note is processed twice, no call is reattempted, and
 * every note is processed after a fair suffix; on the cores without the sync watermark (the seam)
 * the same schedules duplicate.
 */
class GatherStaleSyncProperties {

    @Provide
    Arbitrary<List<Integer>> schedules() {
        return Arbitraries.integers().between(0, 9_999).list().ofMinSize(10).ofMaxSize(150);
    }

    /**
     * Each int picks a step (last digit) and its argument (the rest). Unlike
     * {@link GatherProperties#run}, messages are mostly delivered newest first and a session step
     * delivers only its own traffic, so an older sync is often held back past a note's creation,
     * gather and delivery (T_e is one tick: it must land before two ticks pass).
     */
    static GatherWorld run(int servers, boolean watermark, List<Integer> schedule) {
        GatherWorld world = new GatherWorld(Strategy.S4, GatherWorld.Primitive.ATOMIC,
                new long[servers + 1], null);
        if (!watermark) {
            world.withoutWatermark();
        }
        world.purgeSyncs = true;
        for (int r : schedule) {
            int arg = r / 10;
            switch (r % 10) {
                case 0 -> {
                    if (world.created.size() < 4) {
                        world.create(arg);
                    }
                }
                case 1 -> world.connect(arg);
                case 2, 3 -> {
                    // The session's next step with its own D requests answered and merged at once.
                    int before = world.inFlight().size();
                    world.session();
                    for (int i = 2 * (world.inFlight().size() - before); i > 0; i--) {
                        world.deliverNewest();
                    }
                }
                case 4 -> world.reportOutcomes();
                case 5, 6 -> world.deliverNewest();
                case 7 -> world.sync(arg, arg / 3);
                case 8 -> world.deliver(arg, arg % 5 == 0);
                default -> world.tick(1);
            }
        }
        world.fairSuffix(4);
        return world;
    }

    @Property(tries = 100)
    void purgeSyncsAsMessagesNeverCostADeliveryOrDuplicate(@ForAll("schedules") List<Integer> schedule,
            @ForAll @IntRange(min = 2, max = 3) int servers) {
        GatherWorld world = run(servers, true, schedule);
        Statistics.label("notes").collect(world.created.size());
        assertThat(world.duplicates()).as("NoDuplicateDelivery").isEmpty();
        assertThat(world.reattempts).as("NoReattempt (L185)").isEmpty();
        assertThat(world.unprocessed()).as("EventualDelivery under a fair suffix").isEmpty();
    }

    /**
     * The control: over 300 seeded schedules (2 or 3 servers), the cores without the watermark
     * duplicate in some (the count is printed), the watermarked cores in none.
     */
    @Example
    void randomSchedulesFindTheStaleSyncDuplicateWithoutTheWatermark() {
        SplittableRandom random = new SplittableRandom(10);
        int duplicating = 0;
        for (int trial = 0; trial < 300; trial++) {
            List<Integer> schedule = GatherWorld.seededSchedule(random);
            int servers = 2 + trial % 2;
            assertThat(run(servers, true, schedule).duplicates()).as("watermark, schedule " + trial).isEmpty();
            if (!run(servers, false, schedule).duplicates().isEmpty()) {
                duplicating++;
            }
        }
        System.out.println("GatherStaleSyncProperties: without the watermark, " + duplicating
                + " of 300 random schedules duplicated");
        assertThat(duplicating).as("schedules in which the core without the watermark duplicates").isPositive();
    }
}
