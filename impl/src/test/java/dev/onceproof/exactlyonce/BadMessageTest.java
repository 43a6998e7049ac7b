package dev.onceproof.exactlyonce;

import static dev.onceproof.exactlyonce.CoresTest.A;
import static dev.onceproof.exactlyonce.CoresTest.B;
import static dev.onceproof.exactlyonce.CoresTest.C;
import static dev.onceproof.exactlyonce.CoresTest.config;
import static dev.onceproof.exactlyonce.CoresTest.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Bad input, messages (issue 9: "a note id or sequence number out of range in a message is refused
 * with an error naming the field, and changes no state"): each case sends a core one message with
 * one field out of range and checks the {@link InvalidMessageException}'s field and that the core's
 * durable and volatile state are what they were.
 */
class BadMessageTest {

    private final ManualEoClock clock = new ManualEoClock(0);

    private static TreeSet<NoteId> ids(NoteId... ids) {
        return new TreeSet<>(List.of(ids));
    }

    private static void refused(ServerCore core, Runnable step, String field) {
        ServerDurableState before = core.durable();
        boolean active = core.active();
        var pending = core.pending();
        assertThatThrownBy(step::run).isInstanceOfSatisfying(InvalidMessageException.class,
                e -> assertThat(e.field()).isEqualTo(field));
        assertThat(core.durable()).isEqualTo(before);
        assertThat(core.active()).isEqualTo(active);
        assertThat(core.pending()).isEqualTo(pending);
    }

    /** A sync reply for a round this server never started cannot confirm anything (Condition 1, L107). */
    @Test
    void s2SyncReplyFromAFutureRoundIsRefused() {
        S2Server a = new S2Server(config(A, 2), clock, 2, ServerDurableState.initial());
        S2Server b = new S2Server(config(B, 2), clock, 2, ServerDurableState.initial());
        b.receiveReplica(send(a.createNote("m0"), EoMessage.Replica.class));
        EoMessage.SyncReply forged = new EoMessage.SyncReply(B, A, C, 5, ids(), ids(),
                ids(NoteId.sequenced(A, 0), NoteId.sequenced(A, 1)), 1);
        refused(a, () -> a.receiveSyncReply(forged), "round");
        assertThat(a.confirmedBy(B)).isEmpty();
    }

    @Test
    void s3SyncReplyFromAFutureRoundIsRefused() {
        S3Server a = S3Server.fresh(config(A, 2), clock);
        a.createNote(NoteId.global("n1"), "x");
        refused(a, () -> a.receiveSyncReply(new EoMessage.SyncReply(B, A, C, 1, ids(), ids(), ids(), 0)), "round");
        assertThat(a.known()).isEmpty();
    }

    @Test
    void s3SyncWithASequencedIdAmongItsRemovalsIsRefused() {
        S3Server a = S3Server.fresh(config(A, 2), clock);
        a.createNote(NoteId.global("n1"), "x");
        refused(a, () -> a.handleSync(new EoMessage.SyncRequest(B, A, C, 1, ids(NoteId.global("n1")), ids(),
                ids(NoteId.sequenced(B, 1)), 1)), "removed");
        assertThat(a.known()).isEmpty();
    }

    @Test
    void s1SyncWithAGlobalIdInItsDIsRefused() {
        S1Server a = new S1Server(config(A, 2), clock, ServerDurableState.initial());
        a.createNote("m");
        refused(a, () -> a.handleSync(new EoMessage.SyncRequest(B, A, C, 1, ids(), ids(NoteId.global("n1")),
                ids(NoteId.sequenced(A, 1)), 1)), "d");
    }

    @Test
    void s2ReplicaWithASequenceNumberOutsideTheSpaceIsRefused() {
        S2Server b = new S2Server(config(B, 2), clock, 2, ServerDurableState.initial());
        refused(b, () -> b.receiveReplica(new EoMessage.Replica(A, B, new Note(NoteId.sequenced(A, 2), C, "x"))),
                "note.id.seq");
    }

    @Test
    void s1AckOfSequenceNumberZeroIsRefused() {
        S1Server a = new S1Server(config(A, 2), clock, ServerDurableState.initial());
        a.createNote("m");
        a.startSession();
        a.sendNote();
        refused(a, () -> a.receiveAck(new EoMessage.NoteAck(C, A, NoteId.sequenced(A, 0))), "id.seq");
    }

    @Test
    void s3PurgeAckOfASequencedIdIsRefused() {
        S3Server a = S3Server.fresh(config(A, 2), clock);
        a.createNote(NoteId.global("n1"), "x");
        refused(a, () -> a.receivePurgeAck(new EoMessage.PurgeAck(C, A, NoteId.sequenced(A, 1))), "id");
    }

    @Test
    void clientsRefuseNotesOutsideTheirSpaceAndKeepR() {
        S2Client c2 = S2Client.fresh(C, 2);
        assertThatThrownBy(() -> c2.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(NoteId.sequenced(A, 2), C,
                "")))).isInstanceOfSatisfying(InvalidMessageException.class,
                e -> assertThat(e.field()).isEqualTo("note.id.seq"));
        assertThat(c2.stable()).isEqualTo(S2Client.fresh(C, 2).stable());
        S3Client c3 = S3Client.fresh(C, 1);
        assertThatThrownBy(() -> c3.receivePurge(new EoMessage.PurgeRequest(A, C, NoteId.sequenced(A, 1))))
                .isInstanceOfSatisfying(InvalidMessageException.class, e -> assertThat(e.field()).isEqualTo("id"));
        assertThatThrownBy(() -> new EoMessage.SyncRequest(A, B, C, 0, ids(), ids(), ids(), -1))
                .isInstanceOfSatisfying(InvalidMessageException.class, e -> assertThat(e.field()).isEqualTo("seen"));
    }
}
