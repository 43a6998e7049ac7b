package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Strategy 3 with asynchronous synchronization: a sync request or reply is a message like any
 * other, and this schedule favours delivering the newest message first, so a sync message built
 * before a note existed often arrives after the note was created, delivered and entered D. T_e is
 * long (20 ticks) so such a stale message is still alive when it lands.
 *
 * <p>App. A.4's K-difference rule ("P = K - Ks: other server has purged these") applied to such a
 * stale snapshot reads "not created yet" as "purged there" and drops a delivered, unpurged note from
 * K and D; then no server can ever authorize its purge, the client holds its id in R forever (L169:
 * R is freed only by a purging authorization), and with q = 1 every later note is refused. The
 * checks: no note processed twice (NoDuplicateDelivery), and under a fair suffix every note is
 * processed (EventualDelivery) and every slot of R is freed again.
 */
class S3StaleSyncProperties {

    @Provide
    Arbitrary<List<Integer>> schedules() {
        return Arbitraries.integers().between(0, 9_999).list().ofMinSize(10).ofMaxSize(80);
    }

    static EoWorld run(int servers, int q, List<Integer> schedule) {
        return replay(new EoWorld(Strategy.S3, servers, 1, 0, q, 20), servers, schedule);
    }

    static EoWorld replay(EoWorld world, int servers, List<Integer> schedule) {
        return replay(world, servers, schedule, false);
    }

    /**
     * {@code atOnce}: every note's replication round completes at its creation (the specs' atomic
     * CreateNote); otherwise replicas, acks and commits are messages the schedule delivers.
     */
    static EoWorld replay(EoWorld world, int servers, List<Integer> schedule, boolean atOnce) {
        for (int r : schedule) {
            int arg = r / 10;
            int s = arg % servers;
            switch (r % 10) {
                case 0 -> {
                    if (world.created.size() < 4 && atOnce) {
                        world.createAtOnce(s, 0);
                    } else if (world.created.size() < 4) {
                        world.create(s, 0);
                    }
                }
                case 1 -> world.connect(0, (arg / 7) % (servers + 1));
                case 2 -> world.sendNote(0);
                case 3 -> world.deliver(arg, arg % 5 == 0);
                case 4, 5 -> world.deliverNewest();
                case 6 -> world.sync(s, 0);
                case 7 -> world.authorize(0);
                case 8 -> world.timeout(s, 0);
                default -> world.tick(1);
            }
        }
        return world;
    }

    private static void check(EoWorld world) {
        assertThat(world.duplicates()).as("NoDuplicateDelivery after the schedule").isEmpty();
        world.fairRounds(8, () -> !world.unprocessed().isEmpty() || !world.r(0).isEmpty());
        assertThat(world.duplicates()).as("NoDuplicateDelivery").isEmpty();
        assertThat(world.unprocessed()).as("EventualDelivery under a fair suffix").isEmpty();
        assertThat(world.r(0)).as("every slot of R freed by a purge under a fair suffix (L169)").isEmpty();
    }

    @Property(tries = 200)
    void staleSyncMessagesNeverCostADeliveryOrASlot(@ForAll("schedules") List<Integer> schedule,
            @ForAll @IntRange(min = 2, max = 3) int servers, @ForAll @IntRange(min = 1, max = 2) int q) {
        EoWorld world = run(servers, q, schedule);
        Statistics.label("notes").collect(world.created.size());
        check(world);
    }

    /**
     * The spec's Sync is atomic, and the cores' watermark must not change what an exchange does
     * when nothing is stale: with every sync request and reply delivered at once (as trace replay
     * performs Sync), the watermarked servers and servers without the watermark (the seam) end in
     * the same K, D and R after any schedule, so the spec's Sync remains a faithful abstraction.
     */
    @Property(tries = 100)
    void inImmediateExchangesTheWatermarkChangesNothing(@ForAll("schedules") List<Integer> schedule,
            @ForAll @IntRange(min = 2, max = 3) int servers, @ForAll @IntRange(min = 1, max = 2) int q) {
        EoWorld with = immediate(new EoWorld(Strategy.S3, servers, 1, 0, q, 20, true), servers, schedule);
        EoWorld without = immediate(new EoWorld(Strategy.S3, servers, 1, 0, q, 20, false), servers, schedule);
        assertThat(with.serverStates()).isEqualTo(without.serverStates());
        assertThat(with.r(0)).isEqualTo(without.r(0));
        assertThat(with.processed).isEqualTo(without.processed);
        // A note gone from every K was purged at one server and dropped by K-difference elsewhere.
        Statistics.label("K-difference exercised").collect(with.created.stream().anyMatch(tag -> with.serverStates()
                .stream().noneMatch(d -> d.k().containsKey(NoteId.global(tag)))));
    }

    /** The schedule with every sync exchange completed at once, and no other message held back. */
    private static EoWorld immediate(EoWorld world, int servers, List<Integer> schedule) {
        for (int r : schedule) {
            int arg = r / 10;
            int s = arg % servers;
            switch (r % 10) {
                case 0, 1 -> {
                    if (world.created.size() < 4) {
                        world.createAtOnce(s, 0);
                    }
                }
                case 2 -> world.connect(0, (arg / 7) % (servers + 1));
                case 3, 4 -> {
                    world.sendNote(0);
                    world.deliverNewest();
                    world.deliverNewest();
                }
                case 5, 6 -> {
                    world.sync(s, 0);
                    for (int i = 0; i < 2 * (servers - 1); i++) {
                        world.deliverNewest();
                    }
                }
                case 7 -> {
                    world.authorize(0);
                    world.deliverNewest();
                    world.deliverNewest();
                }
                default -> world.tick(21);
            }
        }
        return world;
    }

    /**
     * The shrunk case, by hand: B's reply to A's round is built before note g1 exists and arrives
     * after g1 was delivered through A. With the K-difference rule applied to that reply, A drops g1
     * from K and D while the client still holds it in R.
     */
    @Example
    void aReplyBuiltBeforeANoteExistedDoesNotPurgeIt() {
        check(staleReply(true));
    }

    /** Control: the same schedule on servers that ignore the watermark loses g1's slot for ever. */
    @Example
    void withoutTheWatermarkTheStaleReplyCostsASlot() {
        EoWorld world = staleReply(false);
        assertThatThrownBy(() -> check(world)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("EventualDelivery");
        assertThat(world.r(0)).containsExactly(NoteId.global("g1"));
    }

    /**
     * jqwik's shrunk schedule (seed -2646013469157232387 on the core before the watermark), a
     * stale REQUEST: B's request (K = {}) is built before g1..g4 exist and is handled by A after A
     * delivered g1.
     */
    @Example
    void aRequestBuiltBeforeANoteExistedDoesNotPurgeIt() {
        List<Integer> shrunk = List.of(1976, 0, 0, 0, 0, 0, 0, 1, 2, 4, 4, 3);
        check(replay(new EoWorld(Strategy.S3, 2, 1, 0, 1, 20), 2, shrunk, true));
        EoWorld control = new EoWorld(Strategy.S3, 2, 1, 0, 1, 20, false);
        replay(control, 2, shrunk, true);
        assertThatThrownBy(() -> check(control)).isInstanceOf(AssertionError.class);
    }

    private static EoWorld staleReply(boolean watermark) {
        EoWorld world = new EoWorld(Strategy.S3, 2, 1, 0, 1, 20, watermark);
        world.sync(0, 0);        // A's request to B
        world.deliverNewest();   // B handles it: its reply (K = {}, D = {}) is in flight
        world.createAtOnce(0, 0); // g1 into K on A and B, its replication round complete
        world.connect(0, 0);
        world.sendNote(0);       // A sends g1 (the reply is older, so deliverNewest takes the note)
        world.deliverNewest();   // the client processes g1, R = {g1}
        world.deliverNewest();   // its ack: g1 into A's D
        world.deliverNewest();   // the stale reply
        world.createAtOnce(1, 0); // g2: with R full it waits for g1's purge
        return world;
    }
}
