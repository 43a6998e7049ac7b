package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Example;

/**
 * The property tests' world ({@link EoWorld}) with Strategy 3's replicas, acks and commits on its
 * network, against cores without the acknowledged replication round (the seam): the random
 * schedules of {@link S3StaleSyncProperties} and {@link ExactlyOnceProperties} run the real round
 * (they pass); these examples show the same world and checks catch the cores without it.
 */
class ReplicationRoundProperties {

    static EoWorld world(boolean round) {
        return new EoWorld(Strategy.S3, 2, 1, 0, 1, 20, true, round);
    }

    /** S3StaleSyncProperties' checks: no duplicate, and under a fair suffix every note and R slot. */
    static void check(EoWorld world) {
        assertThat(world.duplicates()).as("NoDuplicateDelivery after the schedule").isEmpty();
        world.fairRounds(8, () -> !world.unprocessed().isEmpty() || !world.r(0).isEmpty());
        assertThat(world.duplicates()).as("NoDuplicateDelivery").isEmpty();
        assertThat(world.unprocessed()).as("EventualDelivery under a fair suffix").isEmpty();
        assertThat(world.r(0)).as("every slot of R freed by a purge under a fair suffix (L169)").isEmpty();
    }

    /**
     * Harm 1 in the world: B's sync request (K = {g2}, seen = 1) is sent before g1's replica
     * reaches B and lands at A after A delivered g1. Without the round A reads g1 (its number 1) as
     * purged at B and drops it while the client holds it: no server can authorize its purge, and
     * with q = 1 g2 waits for ever.
     */
    @Example
    void aLateReplicaDoesNotMakeAStaleSyncReadAsAPurge() {
        check(lateReplicaPastDeliveryAndSync(true));
        EoWorld control = lateReplicaPastDeliveryAndSync(false);
        assertThatThrownBy(() -> check(control)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("EventualDelivery");
        assertThat(control.r(0)).containsExactly(NoteId.global("g1"));
    }

    private static EoWorld lateReplicaPastDeliveryAndSync(boolean round) {
        EoWorld world = world(round);
        world.create(0, 0); // g1 at A, its replica to B in flight
        world.create(1, 0); // g2 at B, its replica to A in flight
        world.sync(1, 0);   // B's request to A: K = {g2}, seen = 1
        world.deliverFirst(m -> m instanceof EoMessage.Replica r && r.note().body().equals("g1"));
        if (round) {
            world.deliverFirst(m -> m instanceof EoMessage.ReplicaAck); // A commits g1
        }
        world.connect(0, 0);
        world.sendNote(0);
        world.deliverFirst(m -> m instanceof EoMessage.NoteDelivery); // the client processes g1
        world.deliverFirst(m -> m instanceof EoMessage.NoteAck);      // g1 into A's D
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);  // B's stale request
        return world;
    }

    /**
     * jqwik's shrunk schedule for the cores without the round (S3StaleSyncProperties' schedule,
     * 1000 tries): four notes at A whose replicas are in flight when the fair suffix lets T_e pass.
     * Without the round nothing resends a lost replica, so B never holds the notes, no purge can be
     * authorized, and R (q = 1) stays full; with the round the next sync resends them.
     */
    @Example
    void aLostReplicaIsResent() {
        List<Integer> shrunk = List.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        check(S3StaleSyncProperties.replay(world(true), 2, shrunk));
        EoWorld control = S3StaleSyncProperties.replay(world(false), 2, shrunk);
        assertThatThrownBy(() -> check(control)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("EventualDelivery");
    }
}
