package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Strategy 4's PurgeSync run as messages, not as the spec's atomic exchange: a sync built before a
 * note existed and handled after the note was delivered must not make the note look purged at its
 * sender (issue 10; the same hole S3Server closed with a watermark, {@code S3StaleSyncProperties}).
 */
class GatherStaleSyncTest {

    /**
     * B's purge sync to A is built while K is empty and is held in the network; n1 is then created
     * (in every K at once), A gathers, delivers n1 and records it in D; then the stale sync lands at
     * A. Read by the K-difference rule, "n1 is not in B's K" says B purged n1, so A drops it from K
     * and D; B still holds n1 undelivered, gathers A's D without it and delivers n1 a second time.
     */
    static GatherWorld staleSync() {
        GatherWorld world = new GatherWorld(GatherConfig.Strategy.S4, GatherWorld.Primitive.ATOMIC,
                new long[] {0, 0, 0}, null);
        world.purgeSyncs = true;
        world.sync(1, 0);                // B -> A: K = {}, D = {}, held in the network (index 0)
        world.create(0);                 // n1 into A's and B's K
        world.connect(0);
        world.session();                 // A asks B for its D
        world.deliver(1, false);         // B replies (D = {})
        world.deliver(1, false);         // A merges the reply
        world.session();                 // EndGather
        world.session();                 // aDeliver(n1): the client processes it
        world.reportOutcomes();          // ADeliverOK: n1 into A's D
        assertThat(world.processed).containsEntry("n1", 1);
        assertThat(world.inFlight()).singleElement().isInstanceOf(EoMessage.DSync.class);
        world.deliver(0, false);         // the stale sync: A handles it as PurgeSync
        world.connect(1);                // the client moves to B, which still holds n1 undelivered
        for (int i = 0; i < 4; i++) {
            world.session();
            world.drain();
            world.reportOutcomes();
        }
        return world;
    }

    @Test
    void aSyncBuiltBeforeANoteExistedDoesNotPurgeItsDelivery() {
        GatherWorld world = staleSync();
        assertThat(world.duplicates()).as("NoDuplicateDelivery").isEmpty();
        assertThat(world.reattempts).as("NoReattempt").isEmpty();
    }
}
