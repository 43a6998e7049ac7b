package dev.onceproof.exactlyonce;

import static dev.onceproof.exactlyonce.CoresTest.A;
import static dev.onceproof.exactlyonce.CoresTest.B;
import static dev.onceproof.exactlyonce.CoresTest.C;
import static dev.onceproof.exactlyonce.CoresTest.ack;
import static dev.onceproof.exactlyonce.CoresTest.config;
import static dev.onceproof.exactlyonce.CoresTest.send;
import static dev.onceproof.exactlyonce.CoresTest.sent;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Strategy 2 with asynchronous replication (notes Z1; specs/exactlyonce/ExactlyOnceS2MsgAsync.tla):
 * TLC's counterexample of the cores before the fix (exactlyonce-s2msg-async-late-replica and its
 * duplicate), run on the real S2Server. A delivers A.0 before A.0's replica reached B; A's sync
 * tells B A.0 removed and B's reply confirms number 0 gone; then the replica arrives and B takes it
 * as new. Before the fix A reused the number on that confirmation T_e later, and the client, having
 * taken A.1, took B's old A.0 as the next A.0 (L113, strict exactly-once, broken). With the fix a
 * request started before A.0 settled (T_e after its issue) confirms nothing.
 */
class S2LateReplicaTest {

    private static final long TE = 2;
    private static final int W = 2;
    private final ManualEoClock clock = new ManualEoClock(0);

    /** Up to the late replica: A.0 processed at A, B confirmed it gone, then its replica arrived at B. */
    private void upToTheLateReplica(S2Server a, S2Server b, S2Client c) {
        EoMessage.Replica late = send(a.createNote("first"), EoMessage.Replica.class); // held back, within T_e
        a.startSession();
        a.receiveAck(ack(c.receiveNote(sent(a.sendNote()))));
        a.endSession();
        a.receiveSyncReply(send(b.handleSync(send(a.startSync(), EoMessage.SyncRequest.class)),
                EoMessage.SyncReply.class));
        assertThat(b.durable().removed()).contains(NoteId.sequenced(A, 0));
        assertThat(b.receiveReplica(late).outcome()).as("nothing on the wire tells it from a reuse")
                .isEqualTo("stored");
        clock.advance(TE);
    }

    @Test
    void aConfirmationFromBeforeTheReplicasSettledDoesNotLetTheNumberBeReused() {
        S2Server a = new S2Server(config(A, TE), clock, W, ServerDurableState.initial());
        S2Server b = new S2Server(config(B, TE), clock, W, ServerDurableState.initial());
        S2Client c = S2Client.fresh(C, W);
        upToTheLateReplica(a, b, c);
        assertThat(a.confirmedBy(B)).as("the request left before A.0 settled").doesNotContain(0L);
        assertThat(a.mayCreate()).isFalse();
        // The next sync, after A.0 settled: B drops the late A.0 (A's removal, within A's watermark)
        // and confirms it gone; T_e later A may use A.1.
        a.receiveSyncReply(send(b.handleSync(send(a.startSync(), EoMessage.SyncRequest.class)),
                EoMessage.SyncReply.class));
        assertThat(b.durable().k()).isEmpty();
        assertThat(a.confirmedBy(B)).contains(0L);
        clock.advance(TE);
        ServerStep second = a.createNote("second");
        assertThat(second.outcome()).isEqualTo("created A.1");
        b.receiveReplica(send(second, EoMessage.Replica.class));
        a.startSession();
        a.receiveAck(ack(c.receiveNote(sent(a.sendNote()))));
        // The client moves to B: nothing of stream A is left to offer there but A.1, which it has.
        b.startSession();
        ClientStep again = c.receiveNote(sent(b.sendNote()));
        assertThat(again.verdict()).isEqualTo(Verdict.DISCARDED);
    }

    /** Control: the cores before the fix (the seam) reuse the number and the client processes A.0 twice. */
    @Test
    void withoutTheSettleWaitTheOldNoteIsProcessedTwice() {
        S2Server a = new S2Server(config(A, TE), clock, W, ServerDurableState.initial(), true, true, false, false);
        S2Server b = new S2Server(config(B, TE), clock, W, ServerDurableState.initial(), true, true, false, false);
        S2Client c = S2Client.fresh(C, W);
        upToTheLateReplica(a, b, c);
        assertThat(a.confirmedBy(B)).contains(0L);
        ServerStep second = a.createNote("second");
        assertThat(second.outcome()).isEqualTo("created A.1");
        b.receiveReplica(send(second, EoMessage.Replica.class));
        a.startSession();
        a.receiveAck(ack(c.receiveNote(sent(a.sendNote()))));
        b.startSession();
        EoMessage.NoteDelivery offered = sent(b.sendNote());
        assertThat(offered.note().body()).isEqualTo("first");
        assertThat(c.receiveNote(offered).verdict()).as("A.0 processed a second time").isEqualTo(Verdict.ACCEPTED);
    }
}
