package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.constraints.IntRange;

/**
 * Random schedules over {@link EoWorld}: several servers and clients, loss, duplication,
 * reordering, client and server crashes, spurious timeouts, wrap-around (W = 2 or 3) and a small R
 * (q = 1 or 2), followed by a fair suffix. Strategies 1-3 never process a note twice
 * (NoDuplicateDelivery, paper 1: "no delivery and duplicate delivery must be ruled out") and, once
 * the schedule is fair, process every note created (EventualDelivery). Strategy 0 is the
 * at-least-once baseline: it processes everything, and a lost acknowledgement makes it duplicate.
 */
class ExactlyOnceProperties {

    @Provide
    Arbitrary<List<Integer>> schedules() {
        return Arbitraries.integers().between(0, 9_999).list().ofMinSize(10).ofMaxSize(120);
    }

    /** Runs a random prefix: each int picks a step (last digit) and its arguments (the rest). */
    static EoWorld run(Strategy strategy, int servers, int clients, int w, int q, List<Integer> schedule) {
        EoWorld world = new EoWorld(strategy, servers, clients, w, q, 2);
        for (int r : schedule) {
            int arg = r / 10;
            int s = arg % servers;
            int c = (arg / servers) % clients;
            switch (r % 10) {
                case 0 -> {
                    if (world.created.size() < 6) {
                        world.create(s, c);
                    }
                }
                case 1 -> world.connect(c, (arg / 7) % (servers + 1));
                case 2 -> world.sendNote(c);
                case 3, 4 -> world.deliver(arg, arg % 4 == 0);
                case 5 -> world.lose(arg);
                case 6 -> world.timeout(s, c);
                case 7 -> {
                    world.sync(s, c);
                    world.authorize(c);
                }
                case 8 -> {
                    if (arg % 2 == 0) {
                        world.crashClient(c);
                    } else {
                        world.crashServer(s);
                    }
                }
                default -> world.tick(1 + arg % 3);
            }
        }
        return world;
    }

    private static void checkExactlyOnce(Strategy strategy, int servers, int clients, int w, int q,
            List<Integer> schedule) {
        EoWorld world = run(strategy, servers, clients, w, q, schedule);
        assertThat(world.duplicates()).as("NoDuplicateDelivery after the random prefix").isEmpty();
        world.fairSuffix(6);
        assertThat(world.duplicates()).as("NoDuplicateDelivery").isEmpty();
        assertThat(world.unprocessed()).as("EventualDelivery under a fair suffix").isEmpty();
        Statistics.label("notes").collect(world.created.size());
        Statistics.label("wire ids reused").collect(world.reusedIds > 0);
    }

    @Property(tries = 80)
    void strategy1NeverTwiceAndEventuallyAll(@ForAll("schedules") List<Integer> schedule,
            @ForAll @IntRange(min = 2, max = 3) int servers, @ForAll @IntRange(min = 1, max = 2) int clients) {
        checkExactlyOnce(Strategy.S1, servers, clients, 0, 0, schedule);
    }

    @Property(tries = 80)
    void strategy2NeverTwiceAndEventuallyAllAcrossWrapAround(@ForAll("schedules") List<Integer> schedule,
            @ForAll @IntRange(min = 2, max = 3) int servers, @ForAll @IntRange(min = 2, max = 3) int w) {
        checkExactlyOnce(Strategy.S2, servers, 1, w, 0, schedule);
    }

    @Property(tries = 80)
    void strategy3NeverTwiceAndEventuallyAllWithASmallR(@ForAll("schedules") List<Integer> schedule,
            @ForAll @IntRange(min = 2, max = 3) int servers, @ForAll @IntRange(min = 1, max = 2) int clients,
            @ForAll @IntRange(min = 1, max = 2) int q) {
        checkExactlyOnce(Strategy.S3, servers, clients, 0, q, schedule);
    }

    /** Strategy 0 is at-least-once: under a fair suffix everything is processed. */
    @Property(tries = 50)
    void strategy0ProcessesEverythingAtLeastOnce(@ForAll("schedules") List<Integer> schedule,
            @ForAll @IntRange(min = 2, max = 3) int servers) {
        EoWorld world = run(Strategy.S0, servers, 1, 0, 0, schedule);
        world.fairSuffix(6);
        assertThat(world.unprocessed()).isEmpty();
        Statistics.label("some note processed twice").collect(!world.duplicates().isEmpty());
    }

    /** App. B.1, L809: Strategy 0 "can potentially result in duplicate deliveries": a lost ack suffices. */
    @Example
    void strategy0DuplicatesWhenAnAcknowledgementIsLost() {
        EoWorld world = new EoWorld(Strategy.S0, 2, 1, 0, 0, 2);
        world.create(0, 0);
        world.connect(0, 0);
        world.sendNote(0);
        world.deliver(0, false); // the note reaches the client, which processes it
        world.lose(0);           // its acknowledgement is lost
        world.timeout(0, 0);     // Deliver times out
        world.connect(0, 1);     // the client connects to B, which still has the note
        world.sendNote(0);
        world.deliver(0, false);
        assertThat(world.duplicates()).containsExactly("g1 x2");
        // The same schedule on Strategy 1 is exactly-once.
        EoWorld s1 = new EoWorld(Strategy.S1, 2, 1, 0, 0, 2);
        s1.create(0, 0);
        s1.connect(0, 0);
        s1.sendNote(0);
        s1.deliver(0, false);
        s1.lose(0);
        s1.timeout(0, 0);
        s1.connect(0, 1);
        s1.sendNote(0);
        s1.deliver(0, false);
        assertThat(s1.duplicates()).isEmpty();
    }

    /**
     * Recovery through the store (issue 19 item 2): after a server's crash the world recovers it
     * from its journal and checks the state equals the core's before the crash. Control: a core
     * that does not journal its prefix (Strategy 1's AddRemoved) is caught at the crash after an ack.
     */
    @Example
    void aServerThatDoesNotJournalAChangeIsCaughtWhenItRecovers() {
        for (boolean broken : new boolean[] {false, true}) {
            EoWorld world = new EoWorld(Strategy.S1, 2, 1, 0, 0, 2);
            if (broken) {
                world.withoutJournaling(ServerOp.AddRemoved.class);
            }
            world.create(0, 0);
            world.connect(0, 0);
            world.sendNote(0);
            world.deliver(0, false); // the note reaches the client, which processes and acknowledges it
            world.deliver(0, false); // the acknowledgement reaches A: the note joins A's prefix
            if (broken) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> world.crashServer(0))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("recovers");
            } else {
                world.crashServer(0);
                assertThat(world.duplicates()).isEmpty();
            }
        }
    }
}
