package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The paper's examples and the rules the cores enforce, one scenario each. */
class CoresTest {

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");
    final ManualEoClock clock = new ManualEoClock(0);

    static ServerConfig config(ServerId self, long te) {
        return new ServerConfig(self, C, new TreeSet<>(List.of(A, B)), te);
    }

    /**
     * A Strategy 2 server for a test that hands every replica over at once (as the specs' atomic
     * CreateNote): its numbers settle when issued (see {@link S2Server}).
     */
    static S2Server s2ReplicatedAtOnce(ServerConfig config, EoClock clock, int w, boolean watermark) {
        return new S2Server(config, clock, w, ServerDurableState.initial(), watermark, true, true, true);
    }

    static EoMessage.NoteDelivery sent(ServerStep step) {
        return (EoMessage.NoteDelivery) ((ServerEffect.Send) step.effects().get(0)).message();
    }

    static <T extends EoMessage> T send(ServerStep step, Class<T> type) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.Send)
                .map(e -> ((ServerEffect.Send) e).message()).filter(type::isInstance).map(type::cast)
                .findFirst().orElseThrow();
    }

    static EoMessage.NoteAck ack(ClientStep step) {
        return (EoMessage.NoteAck) step.effects().stream().filter(e -> e instanceof ClientEffect.Send)
                .map(e -> ((ClientEffect.Send) e).message()).findFirst().orElseThrow();
    }

    /** Example 1 (L81-85): A delivers A.3's stream; a resend by B (not yet synced) is rejected. */
    @Test
    void example1ResendOfAcceptedNoteIsRejected() {
        S1Server a = new S1Server(config(A, 2), clock, ServerDurableState.initial());
        S1Server b = new S1Server(config(B, 2), clock, ServerDurableState.initial());
        S1Client c = S1Client.fresh(C);
        ServerStep created = a.createNote("m");
        b.receiveReplica(send(created, EoMessage.Replica.class));
        a.startSession();
        ClientStep first = c.receiveNote(sent(a.sendNote()));
        assertThat(first.verdict()).isEqualTo(Verdict.ACCEPTED);
        a.receiveAck(ack(first));
        b.startSession();
        ClientStep again = c.receiveNote(sent(b.sendNote()));
        assertThat(again.verdict()).isEqualTo(Verdict.DISCARDED);
        assertThat(b.receiveAck(ack(again)).outcome()).isEqualTo("delivered");
        assertThat(b.durable().k()).isEmpty();
    }

    @Test
    void recordPrecedesTheAcknowledgement() {
        S1Client c = S1Client.fresh(C);
        ClientStep step = c.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(NoteId.sequenced(A, 1), C, "")));
        assertThat(step.effects().get(0)).isInstanceOf(ClientEffect.Record.class);
        assertThat(step.effects().get(1)).isInstanceOf(ClientEffect.Send.class);
    }

    @Test
    void gapIsNeitherProcessedNorAcknowledged() {
        S1Client c = S1Client.fresh(C);
        ClientStep step = c.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(NoteId.sequenced(A, 2), C, "")));
        assertThat(step.verdict()).isEqualTo(Verdict.OUT_OF_ORDER);
        assertThat(step.acknowledges()).isFalse();
        assertThat(c.lastAccepted(A)).isZero();
    }

    @Test
    void outOfRangeSequenceNumberIsRefusedNamingTheFieldAndChangesNothing() {
        S2Client c = S2Client.fresh(C, 3);
        assertThatThrownBy(() -> c.receiveNote(new EoMessage.NoteDelivery(A, C,
                new Note(NoteId.sequenced(A, 3), C, "")))).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("note.id.seq").hasMessageContaining("0..2");
        assertThat(c.stable().r()).isEmpty();
        S1Server a = new S1Server(config(A, 2), clock, ServerDurableState.initial());
        a.startSession();
        ServerDurableState before = a.durable();
        assertThatThrownBy(() -> a.receiveAck(new EoMessage.NoteAck(C, A, NoteId.global("n1"))))
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("field id");
        assertThatThrownBy(() -> a.receiveAck(new EoMessage.NoteAck(ClientId.of("other"), A, NoteId.sequenced(A, 1))))
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("field from");
        assertThat(a.durable()).isEqualTo(before);
        assertThatThrownBy(() -> NoteId.parse("A.x")).hasMessageContaining("sequence number");
        assertThatThrownBy(() -> new NoteId.Sequenced(A, -1)).hasMessageContaining("negative");
    }

    /** Condition 1 (L107): x.s is not reused until every other server confirmed it and x.(s+1) gone, T_e ago. */
    @Test
    void condition1HoldsReuseUntilConfirmedAndTeHasPassed() {
        int w = 2;
        S2Server a = s2ReplicatedAtOnce(config(A, 3), clock, w, true);
        S2Server b = s2ReplicatedAtOnce(config(B, 3), clock, w, true);
        S2Client c = S2Client.fresh(C, w);
        b.receiveReplica(send(a.createNote("m0"), EoMessage.Replica.class));
        assertThat(a.createNote("m1").outcome()).as("x.1 needs x.0 (its s+1) confirmed").isEqualTo("blocked");
        a.startSession();
        ClientStep got = c.receiveNote(sent(a.sendNote()));
        assertThat(got.verdict()).isEqualTo(Verdict.ACCEPTED);
        a.receiveAck(ack(got));
        assertThat(a.createNote("m1").outcome()).as("B still holds A.0").isEqualTo("blocked");
        EoMessage.SyncRequest req = send(a.startSync(), EoMessage.SyncRequest.class);
        a.receiveSyncReply(send(b.handleSync(req), EoMessage.SyncReply.class));
        assertThat(a.createNote("m1").outcome()).as("confirmed now, but T_e has not passed").isEqualTo("blocked");
        clock.advance(3);
        assertThat(a.createNote("m1").outcome()).isEqualTo("created A.1");
    }

    /** Example 3 (L148-160), then the purge: R emptied only after both Ds hold m1 and m2 and T_e passed. */
    @Test
    void example3PurgeAuthorizedOnlyOnceEveryServerHasTheNoteInD() {
        S3Server a = S3Server.fresh(config(A, 2), clock);
        S3Server b = S3Server.fresh(config(B, 2), clock);
        S3Client c = S3Client.fresh(C, 2);
        for (String n : List.of("m1", "m2")) {
            Replication.atOnce(a.createNote(NoteId.global(n), n), s -> s.equals(A) ? a : b);
        }
        a.startSession();
        a.receiveAck(ack(c.receiveNote(sent(a.sendNote()))));
        a.endSession();
        b.startSession();
        ClientStep m1Again = c.receiveNote(sent(b.sendNote()));
        assertThat(m1Again.verdict()).isEqualTo(Verdict.DUPLICATE);
        b.receiveAck(ack(m1Again));
        ClientStep m2 = c.receiveNote(sent(b.sendNote()));
        assertThat(m2.verdict()).isEqualTo(Verdict.ACCEPTED);
        b.receiveAck(ack(m2));
        assertThat(b.durable().d()).containsExactly(NoteId.global("m1"), NoteId.global("m2"));
        assertThat(b.authorize().outcome()).as("no sync yet").isEqualTo("none");
        EoMessage.SyncRequest req = send(b.startSync(), EoMessage.SyncRequest.class);
        b.receiveSyncReply(send(a.handleSync(req), EoMessage.SyncReply.class));
        assertThat(a.durable().d()).containsExactly(NoteId.global("m1"), NoteId.global("m2"));
        assertThat(b.authorize().outcome()).as("T_e not yet passed").isEqualTo("none");
        clock.advance(2);
        ServerStep auth = b.authorize();
        ClientStep purged = c.receivePurge(send(auth, EoMessage.PurgeRequest.class));
        b.receivePurgeAck((EoMessage.PurgeAck) ((ClientEffect.Send) purged.effects().get(1)).message());
        assertThat(c.stable().r()).containsExactly(NoteId.global("m2"));
        assertThat(b.durable().k()).containsOnlyKeys(NoteId.global("m2"));
    }

    /** L169: a full R refuses (no acknowledgement, not processed) until a purge frees a slot. */
    @Test
    void fullRRefusesWithAVerdictSayingSo() {
        S3Client c = S3Client.fresh(C, 1);
        assertThat(c.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(NoteId.global("n1"), C, ""))).verdict())
                .isEqualTo(Verdict.ACCEPTED);
        ClientStep refused = c.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(NoteId.global("n2"), C, "")));
        assertThat(refused.verdict()).isEqualTo(Verdict.R_FULL);
        assertThat(refused.effects()).isEmpty();
        c.receivePurge(new EoMessage.PurgeRequest(A, C, NoteId.global("n1")));
        assertThat(c.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(NoteId.global("n2"), C, ""))).verdict())
                .isEqualTo(Verdict.ACCEPTED);
    }

    /**
     * Race R3 (notes 2.4): App. A.4 as printed walks a stale U; a note purged meanwhile is sent and
     * processed again. The corrected session re-checks K - D and does not. A delivers y; B's session
     * snapshots U = {x, y}, delivers x, then B's sync round puts x and y in every D, the client is
     * told to purge both, and B's loop reaches y.
     */
    @Test
    void printedSnapshotDeliversAPurgedNoteAgainCorrectedDoesNot() {
        assertThat(raceR3(S3Variant.PRINTED)).as("printed: y processed twice").containsExactly("y", "x", "y");
        assertThat(raceR3(S3Variant.CORRECTED)).containsExactly("y", "x");
    }

    private List<String> raceR3(S3Variant variant) {
        ManualEoClock t = new ManualEoClock(0);
        S3Server a = S3Server.fresh(config(A, 0), t);
        S3Server b = new S3Server(config(B, 0), t, variant, ServerDurableState.initial());
        S3Client c = S3Client.fresh(C, 3);
        List<String> processed = new ArrayList<>();
        Replication.atOnce(a.createNote(NoteId.global("y"), "y"), s -> s.equals(A) ? a : b);
        a.startSession();
        a.receiveAck(ack(deliver(a.sendNote(), c, processed)));
        a.endSession();
        Replication.atOnce(a.createNote(NoteId.global("x"), "x"), s -> s.equals(A) ? a : b);
        b.startSession();
        // x first (the loop's order is free, Z20; B's own loop would offer y, which became deliverable first).
        b.receiveAck(ack(deliver(b.sendNote(NoteId.global("x")), c, processed)));
        EoMessage.SyncRequest req = send(b.startSync(), EoMessage.SyncRequest.class);
        b.receiveSyncReply(send(a.handleSync(req), EoMessage.SyncReply.class));
        for (int i = 0; i < 2; i++) {
            ClientStep purged = c.receivePurge(send(b.authorize(), EoMessage.PurgeRequest.class));
            b.receivePurgeAck((EoMessage.PurgeAck) ((ClientEffect.Send) purged.effects().get(1)).message());
        }
        assertThat(c.stable().r()).isEmpty();
        ServerStep next = b.sendNote();
        if (next.outcome().equals("sent")) {
            deliver(next, c, processed);
        }
        return processed;
    }

    private static ClientStep deliver(ServerStep sendStep, S3Client c, List<String> processed) {
        EoMessage.NoteDelivery m = sent(sendStep);
        ClientStep step = c.receiveNote(m);
        if (step.verdict() == Verdict.ACCEPTED) {
            processed.add(m.note().id().text());
        }
        return step;
    }
}
