package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A replica that reaches its server late, on the real Strategy 4-6 cores (issue 20 item 1, notes
 * Z1; specs/exactlyonce/README.md, "Replication: the acknowledged round, Strategies 4-6"). Each
 * scenario runs on the cores as built and, as the control, on cores built without the replication
 * round ({@link StrategyConfig#withoutReplicationRound()}, the seam).
 */
class GatherLateReplicaTest {

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");
    static final NoteId N1 = NoteId.global("n1");
    static final NoteId N2 = NoteId.global("n2");
    static final long TR = 10;
    static final long TU = 2;
    static final long SKEW = 1;
    static final long TE = 3;

    final ManualEoClock clock = new ManualEoClock(100);
    /** Every aDeliver call that succeeded, by server: the client processed the note each time. */
    final List<String> processed = new ArrayList<>();

    StrategyConfig config(Strategy s, boolean round) {
        StrategyConfig c = s.config(C, new TreeSet<>(List.of(A, B)), TE).times(TR, TU, SKEW);
        return round ? c : c.withoutReplicationRound();
    }

    GatherServer server(StrategyConfig c, ServerId self) {
        return (GatherServer) c.server(self, clock, GatherDurableState.initial());
    }

    static <T extends EoMessage> List<T> sends(ServerStep step, Class<T> type) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.Send)
                .map(e -> ((ServerEffect.Send) e).message()).filter(type::isInstance).map(type::cast).toList();
    }

    /** The delivery phase of a session already gathered: aDeliver every note it offers, each a success. */
    void deliverAll(GatherServer s) {
        assertThat(s.endGather().outcome()).isEqualTo("delivering");
        for (ServerStep step = s.aDeliverNext(); step.outcome().equals("calling"); step = s.aDeliverNext()) {
            ServerEffect.ADeliver call = step.effects().stream().filter(e -> e instanceof ServerEffect.ADeliver)
                    .map(ServerEffect.ADeliver.class::cast).findFirst().orElseThrow();
            processed.add(call.note().id().text() + "@" + s.config().self());
            s.aDeliverOk(call.session(), call.note().id());
        }
    }

    /**
     * Strategy 6, the case found by reading the code: A creates n1 and its replica to B is held in
     * the network. The client connects to A, which has never heard of B's deliveries and need not
     * (the client never visited B): A delivers n1. The client leaves; A's push sync, sent after the
     * connection ended, reaches B, which merges a peer's D only for notes in its own K, so it learns
     * nothing. Then the replica arrives: B holds n1 undelivered. The client connects to B, whose
     * latest sync from A is fresher than the client's visit to A, so B does not gather from A and
     * delivers n1 again. With the round A cannot deliver n1 before B stored it, and B's K holds n1
     * when A's D reaches it.
     */
    List<String> s6LateReplica(boolean round) {
        StrategyConfig c = config(Strategy.S6, round);
        S6Server a = (S6Server) server(c, A);
        S6Server b = (S6Server) server(c, B);
        S6Client client = new S6Client(C, clock, ClientHistory.never());
        ServerStep created = a.createNote(N1, "one");
        EoMessage.Replica late = sends(created, EoMessage.Replica.class).get(0);   // held in the network
        a.startSession(S56CoreTest.upload(client.connectTo(A)));
        assertThat(a.stale()).as("B never visited: A gathers from nobody").isEmpty();
        deliverAll(a);
        a.endSession();
        client.endConnection();
        clock.advance(a.config().historyMargin() + 1);
        for (EoMessage.DSync y : sends(a.pushSync(), EoMessage.DSync.class)) {
            b.recvSync(y);                                                           // A's D, fresh
        }
        deliverRound(b.receive(late), a, b);                                         // the replica, at last
        b.startSession(S56CoreTest.upload(client.connectTo(B)));
        if (b.stale().contains(A)) {                                                 // (not with A fresh)
            for (EoMessage.DRequest q : sends(b.reqAll(), EoMessage.DRequest.class)) {
                b.recvD(sends(a.replyD(q), EoMessage.DReply.class).get(0));
            }
        }
        deliverAll(b);
        b.endSession();
        client.endConnection();
        // Whatever A still holds for the client is offered at its next connection.
        a.startSession(S56CoreTest.upload(client.connectTo(A)));
        for (EoMessage.DRequest q : sends(a.reqAll(), EoMessage.DRequest.class)) {
            a.recvD(sends(b.replyD(q), EoMessage.DReply.class).get(0));
        }
        deliverAll(a);
        return processed;
    }

    /** Hands the round's messages among {@code step}'s effects (and those they cause) to a or b. */
    static void deliverRound(ServerStep step, GatherServer a, GatherServer b) {
        Replication.atOnce(step, s -> s.equals(A) ? a : b);
    }

    @Test
    void aNoteDeliveredBeforeItsReplicaArrivedIsNotDeliveredAgainByStrategy6() {
        assertThat(s6LateReplica(true)).as("n1 processed once, by B once the round completed")
                .containsExactly("n1@B");
    }

    /** Control: without the round A delivers n1 before B has it, and B delivers it again. */
    @Test
    void withoutTheRoundTheLateReplicaIsDeliveredTwice() {
        assertThat(s6LateReplica(false)).containsExactly("n1@A", "n1@B");
    }

    /** startSession, every D request answered by its peer, endGather (Strategy 4: every other server). */
    static void gather(GatherServer s, GatherServer peer) {
        s.startSession();
        for (EoMessage.DRequest q : sends(s.reqAll(), EoMessage.DRequest.class)) {
            s.recvD(sends(peer.replyD(q), EoMessage.DReply.class).get(0));
        }
        assertThat(s.endGather().outcome()).isEqualTo("delivering");
    }

    void deliver(GatherServer s, NoteId i) {
        assertThat(s.aDeliver(s.session(), i).outcome()).isEqualTo("calling");
        processed.add(i.text() + "@" + s.config().self());
        s.aDeliverOk(s.session(), i);
    }

    /**
     * Strategy 4's purge sync read against whose numbers (recvPurgeSync's K-difference rule). A
     * creates n1 and B creates n2 at once, so A numbers them n1 = 1, n2 = 2 and B the other way
     * round. B's purge sync is built before B stored n1 (K = {n2}, seen 1) and held in the network;
     * the rounds complete, A delivers n1, then the stale sync lands. Read against A's own number for
     * n1 (1, within seen 1) it says "B purged n1": A drops n1 from K and D, B gathers A's D without it
     * and delivers n1 again. B's own number for n1, which the round's commit gives A, is 2: the sync
     * could not have known n1, and A keeps it.
     */
    List<String> s4StaleSyncAcrossNumberings(boolean round) {
        StrategyConfig c = config(Strategy.S4, round);
        GatherServer a = server(c, A);
        GatherServer b = server(c, B);
        EoMessage.Replica n1 = sends(a.createNote(N1, "one"), EoMessage.Replica.class).get(0);
        ServerStep n2 = b.createNote(N2, "two");
        EoMessage.DSync stale = sends(((S4Server) b).purgeSync(A), EoMessage.DSync.class).get(0);
        deliverRound(n2, a, b);                  // A stores n2 as its number 2
        deliverRound(b.receive(n1), a, b);       // B stores n1 as its number 2; A commits n1
        gather(a, b);
        deliver(a, N1);
        a.endSession();
        ((S4Server) a).recvPurgeSync(stale);
        gather(b, a);
        for (ServerStep step = b.aDeliverNext(); step.outcome().equals("calling"); step = b.aDeliverNext()) {
            NoteId i = ((ServerEffect.ADeliver) step.effects().get(1)).note().id();
            processed.add(i.text() + "@B");
            b.aDeliverOk(b.session(), i);
        }
        return processed;
    }

    @Test
    void aPurgeSyncIsReadAgainstItsSendersNumbers() {
        assertThat(s4StaleSyncAcrossNumberings(true)).containsExactly("n1@A", "n2@B");
    }

    /** Control: without the round (our own numbers) the stale sync purges n1 at A, and B delivers it again. */
    @Test
    void readAgainstOurOwnNumbersTheStaleSyncDeliversTwice() {
        assertThat(s4StaleSyncAcrossNumberings(false)).containsExactly("n1@A", "n1@B", "n2@B");
    }

    /**
     * The purge has no T_e gate; the round is why none is needed. n1's replica reaches B twice (a
     * network duplicate that outlives T_e); the first copy completes the round, A delivers n1, and
     * purge syncs both ways drop it everywhere. Then the second copy lands at B: stored again, but
     * its ack names a note A no longer holds, so no commit ever comes and B never offers it.
     */
    List<String> s4ReplicaAfterPurge(boolean round) {
        StrategyConfig c = config(Strategy.S4, round);
        S4Server a = (S4Server) server(c, A);
        S4Server b = (S4Server) server(c, B);
        EoMessage.Replica copy = sends(a.createNote(N1, "one"), EoMessage.Replica.class).get(0);
        deliverRound(b.receive(copy), a, b);
        gather(a, b);
        deliver(a, N1);
        a.endSession();
        for (int k = 0; k < 2; k++) {  // B learns A's D and purges; A learns B purged it
            b.recvPurgeSync(sends(a.purgeSync(B), EoMessage.DSync.class).get(0));
            a.recvPurgeSync(sends(b.purgeSync(A), EoMessage.DSync.class).get(0));
        }
        assertThat(a.k()).as("purged at A").isEmpty();
        assertThat(b.k()).as("purged at B").isEmpty();
        deliverRound(b.receive(copy), a, b);     // the late copy
        gather(b, a);
        for (ServerStep step = b.aDeliverNext(); step.outcome().equals("calling"); step = b.aDeliverNext()) {
            processed.add("n1@B");
            b.aDeliverOk(b.session(), N1);
        }
        return processed;
    }

    @Test
    void aReplicaArrivingAfterItsNoteWasPurgedIsNeverDeliveredAgain() {
        assertThat(s4ReplicaAfterPurge(true)).containsExactly("n1@A");
    }

    /** Control: without the round the late copy enters B's K undelivered and B delivers n1 again. */
    @Test
    void withoutTheRoundALateReplicaAfterThePurgeDeliversTwice() {
        assertThat(s4ReplicaAfterPurge(false)).containsExactly("n1@A", "n1@B");
    }
}
