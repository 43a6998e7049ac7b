package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Strategy 3's acknowledged replication round on the real cores (README, "Replication: the
 * acknowledged round"; specs/exactlyonce/ExactlyOnceS3MsgRound.tla), each scenario run with the
 * round and, as the control, on cores built without it (the seam {@code replicationRound = false}):
 * a replica held back past a delivery and a sync (harm 1: the K-difference rule misreads the late
 * note as purged), and past a delivery and a purge (harm 2: the note enters K again and is
 * delivered again).
 */
class ReplicationRoundTest {

    static final ClientId C = CoresTest.C;
    static final ServerId A = CoresTest.A;
    static final ServerId B = CoresTest.B;
    static final NoteId N1 = NoteId.global("n1");
    static final NoteId N2 = NoteId.global("n2");
    final ManualEoClock clock = new ManualEoClock(0);

    S3Server server(ServerId self, boolean round) {
        return new S3Server(CoresTest.config(self, 2), clock, S3Variant.CORRECTED, ServerDurableState.initial(), true,
                round);
    }

    static <T extends EoMessage> List<T> sends(ServerStep step, Class<T> type) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.Send)
                .map(e -> ((ServerEffect.Send) e).message()).filter(type::isInstance).map(type::cast).toList();
    }

    /** Hands every round message of {@code step} (and of the steps they cause) to a or b at once. */
    static void roundAtOnce(ServerStep step, S3Server a, S3Server b) {
        Replication.atOnce(step, s -> s.equals(A) ? a : b);
    }

    @Test
    void aNoteIsDeliverableOnlyOnceEveryServerStoredIt() {
        S3Server a = server(A, true);
        S3Server b = server(B, true);
        ServerStep created = a.createNote(Optional.of(N1), "one");
        EoMessage.Replica replica = CoresTest.send(created, EoMessage.Replica.class);
        a.startSession();
        assertThat(a.sendNote().outcome()).as("not before B stored it").isEqualTo("idle");
        ServerStep stored = b.receive(replica);
        assertThat(stored.outcome()).isEqualTo("stored");
        b.startSession();
        assertThat(b.sendNote().outcome()).as("not before the commit").isEqualTo("idle");
        ServerStep committed = a.receive(CoresTest.send(stored, EoMessage.ReplicaAck.class));
        assertThat(committed.outcome()).isEqualTo("committed");
        assertThat(a.sendNote().outcome()).isEqualTo("sent");
        assertThat(b.receive(CoresTest.send(committed, EoMessage.ReplicaCommit.class)).outcome()).isEqualTo("committed");
        assertThat(b.sendNote().outcome()).isEqualTo("sent");
    }

    /** A lost replica, ack or commit delays the note until the next sync resends it; none loses it. */
    @Test
    void theNextSyncResendsWhatARoundLost() {
        S3Server a = server(A, true);
        S3Server b = server(B, true);
        a.createNote(Optional.of(N1), "one"); // its replica is lost
        ServerStep resent = a.startSync();
        assertThat(sends(resent, EoMessage.Replica.class)).singleElement().extracting(r -> r.note().id()).isEqualTo(N1);
        ServerStep stored = b.receive(sends(resent, EoMessage.Replica.class).get(0)); // its ack is lost
        assertThat(sends(b.startSync(), EoMessage.ReplicaAck.class)).singleElement()
                .isEqualTo(CoresTest.send(stored, EoMessage.ReplicaAck.class));
        ServerStep committed = a.receive(CoresTest.send(stored, EoMessage.ReplicaAck.class)); // its commit is lost
        assertThat(committed.outcome()).isEqualTo("committed");
        ServerStep again = a.receive(sends(b.startSync(), EoMessage.ReplicaAck.class).get(0));
        assertThat(again.outcome()).isEqualTo("recommitted");
        assertThat(b.receive(CoresTest.send(again, EoMessage.ReplicaCommit.class)).outcome()).isEqualTo("committed");
        assertThat(sends(b.startSync(), EoMessage.ReplicaAck.class)).isEmpty();
        b.startSession();
        assertThat(b.sendNote().outcome()).isEqualTo("sent");
    }

    /**
     * Harm 1, TLC's counterexample to the cores' old replication (exactlyonce-s3msg-async-replication)
     * on the real cores: A creates n1, B creates n2 and starts a sync round before n1's replica
     * reaches it (its request: K = {n2}, seen = 1); the replica arrives, A delivers n1; then B's
     * request reaches A. n1 is A's note number 1, B's number 2. Read against B's number (the
     * round's) the request says nothing of n1; read against A's own, n1 "was purged at B" and A
     * drops it from K and D while the client holds it in R: no server can authorize its purge now.
     */
    @Test
    void aSyncBuiltBeforeItsSenderStoredANoteDoesNotPurgeIt() {
        assertThat(staleRequestAfterDelivery(true)).as("A keeps n1 (ForgetOnlyPurged)").contains(N1);
        assertThat(staleRequestAfterDelivery(false)).as("control, no round: A drops n1 the client still holds")
                .doesNotContain(N1);
    }

    /** A's K after the stale request; the client holds n1 in R throughout. */
    private java.util.SortedSet<NoteId> staleRequestAfterDelivery(boolean round) {
        S3Server a = server(A, round);
        S3Server b = server(B, round);
        S3Client c = S3Client.fresh(C, 2);
        EoMessage.Replica n1 = CoresTest.send(a.createNote(Optional.of(N1), "one"), EoMessage.Replica.class);
        roundAtOnce(b.createNote(Optional.of(N2), "two"), a, b);
        EoMessage.SyncRequest stale = CoresTest.send(b.startSync(), EoMessage.SyncRequest.class);
        assertThat(stale.k()).containsExactly(N2);
        assertThat(stale.seen()).isEqualTo(1);
        roundAtOnce(b.receive(n1), a, b);
        a.startSession();
        a.receiveAck(CoresTest.ack(c.receiveNote(CoresTest.sent(a.sendNote(N1)))));
        assertThat(a.durable().d()).containsExactly(N1);
        a.handleSync(stale);
        assertThat(c.stable().r()).containsExactly(N1);
        return new java.util.TreeSet<>(a.durable().k().keySet());
    }

    /**
     * Harm 2: a copy of n1's replica is held back past n1's delivery and purge (longer than T_e:
     * the T_e purge gate alone stops this in a network that keeps the lifetime bound). Without the
     * round B takes it as a new note and delivers it again: the client, n1 purged from R, processes
     * it twice. With the round B stores it but never offers it: no commit can come for a note its
     * origin has purged.
     */
    @Test
    void aReplicaArrivingAfterItsNoteWasPurgedIsNeverDeliveredAgain() {
        assertThat(lateReplicaAfterPurge(true)).as("n1 processed once").isEqualTo(1);
        assertThat(lateReplicaAfterPurge(false)).as("control, no round: n1 processed twice").isEqualTo(2);
    }

    /** How many times the client processes n1. */
    private int lateReplicaAfterPurge(boolean round) {
        S3Server a = server(A, round);
        S3Server b = server(B, round);
        S3Client c = S3Client.fresh(C, 2);
        int[] processed = {0};
        ServerStep created = a.createNote(Optional.of(N1), "one");
        EoMessage.Replica late = CoresTest.send(created, EoMessage.Replica.class); // a copy, held back
        roundAtOnce(created, a, b);
        a.startSession();
        a.receiveAck(CoresTest.ack(take(c, a.sendNote(), processed)));
        exchange(a, b); // every D holds n1
        clock.advance(3); // T_e = 2 has passed since
        ClientStep purged = c.receivePurge(CoresTest.send(a.authorize(), EoMessage.PurgeRequest.class));
        a.receive(purged.effects().stream().filter(e -> e instanceof ClientEffect.Send)
                .map(e -> ((ClientEffect.Send) e).message()).findFirst().orElseThrow());
        assertThat(c.stable().r()).isEmpty();
        assertThat(a.durable().k()).isEmpty();
        exchange(b, a);
        assertThat(b.durable().k()).as("B followed A's purge by K-difference").isEmpty();
        roundAtOnce(b.receive(late), a, b);
        b.startSession();
        ServerStep again = b.sendNote();
        if (again.outcome().equals("sent")) {
            take(c, again, processed);
        }
        return processed[0];
    }

    /** One sync round of {@code from} with {@code to}, request and reply delivered at once. */
    private static void exchange(S3Server from, S3Server to) {
        EoMessage.SyncRequest req = CoresTest.send(from.startSync(), EoMessage.SyncRequest.class);
        from.receive(CoresTest.send(to.handleSync(req), EoMessage.SyncReply.class));
    }

    private static ClientStep take(S3Client c, ServerStep send, int[] processed) {
        ClientStep step = c.receiveNote(CoresTest.sent(send));
        if (step.verdict() == Verdict.ACCEPTED) {
            processed[0]++;
        }
        return step;
    }
}
