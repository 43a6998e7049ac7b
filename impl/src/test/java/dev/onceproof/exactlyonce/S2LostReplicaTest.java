package dev.onceproof.exactlyonce;

import static dev.onceproof.exactlyonce.CoresTest.A;
import static dev.onceproof.exactlyonce.CoresTest.B;
import static dev.onceproof.exactlyonce.CoresTest.C;
import static dev.onceproof.exactlyonce.CoresTest.ack;
import static dev.onceproof.exactlyonce.CoresTest.config;
import static dev.onceproof.exactlyonce.CoresTest.send;
import static dev.onceproof.exactlyonce.CoresTest.sent;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.storage.InMemoryOperationLog;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Strategy 2 with asynchronous replicas and a lost one (notes Z1, issue 20 item 1;
 * specs/exactlyonce/ExactlyOnceS2MsgAsync.tla, rule "tag"): TLC's counterexample
 * exactlyonce-s2msg-async-settle-forgets, run on the real S2Server. The replica of A.1 to B is
 * lost, so B has seen one note fewer than A; A answers B's request (built long before) before it
 * reuses number 0, and that reply, naming A.0 removed with A's watermark 2, reaches B after the new
 * A.0's replica, which B numbered 2. By the watermark alone B drops the new A.0, which the client
 * never processed. With the rule the reply names the incarnation it removed (issue 0) and B keeps
 * the one issued third (issue 2), across a restart of B from its journal.
 */
class S2LostReplicaTest {

    private static final long TE = 2;
    private static final int W = 2;
    private final ManualEoClock clock = new ManualEoClock(0);
    private final InMemoryOperationLog.Disk diskB = new InMemoryOperationLog.Disk("server B");
    private final ServerStore storeB = ServerStore.inMemory(diskB);
    private final NoteId a0 = NoteId.sequenced(A, 0);

    private S2Server b(ServerDurableState state, UnaryOperator<S2Server> seam) {
        return seam.apply(new S2Server(config(B, TE), clock, W, state));
    }

    /** B's step, its records journaled (B is restarted from the journal below). */
    private ServerStep atB(S2Server b, ServerStep step) {
        step.effects().stream().filter(e -> e instanceof ServerEffect.Record)
                .forEach(e -> storeB.save((ServerEffect.Record) e, b::durable));
        return step;
    }

    private void deliverAtA(S2Server a, S2Client c) {
        a.startSession();
        a.receiveAck(ack(c.receiveNote(sent(a.sendNote()))));
        a.endSession();
    }

    /** TLC's schedule; returns B after the stale reply, restarted from its journal before it. */
    private S2Server run(UnaryOperator<S2Server> seam, boolean journaled) {
        S2Server a = new S2Server(config(A, TE), clock, W, ServerDurableState.initial());
        S2Server b = b(ServerDurableState.initial(), seam);
        S2Client c = S2Client.fresh(C, W);
        atB(b, b.receiveReplica(send(a.createNote("first"), EoMessage.Replica.class)));
        EoMessage.SyncRequest oldRequest = send(atB(b, b.startSync()), EoMessage.SyncRequest.class);
        clock.advance(TE); // A.0 settles
        deliverAtA(a, c);
        a.receiveSyncReply(send(atB(b, b.handleSync(send(a.startSync(), EoMessage.SyncRequest.class))),
                EoMessage.SyncReply.class));
        assertThat(a.confirmedBy(B)).contains(0L);
        clock.advance(TE);
        ServerStep second = a.createNote("second");
        assertThat(second.outcome()).isEqualTo("created A.1");
        send(second, EoMessage.Replica.class); // lost: B never sees A.1
        clock.advance(TE); // A.1 settles
        EoMessage.SyncReply stale = send(a.handleSync(oldRequest), EoMessage.SyncReply.class); // held back
        assertThat(stale.removed()).contains(a0);
        assertThat(stale.seen()).isEqualTo(2);
        deliverAtA(a, c);
        a.receiveSyncReply(send(atB(b, b.handleSync(send(a.startSync(), EoMessage.SyncRequest.class))),
                EoMessage.SyncReply.class));
        clock.advance(TE);
        ServerStep third = a.createNote("third");
        assertThat(third.outcome()).as("number 0 reused").isEqualTo("created A.0");
        assertThat(send(third, EoMessage.Replica.class).issue()).isEqualTo(2);
        atB(b, b.receiveReplica(send(third, EoMessage.Replica.class)));
        assertThat(b.durable().entered()).as("B numbers the new A.0 2, within A's old watermark")
                .containsEntry(a0, 2L);
        S2Server restarted = b(ServerStore.inMemory(diskB).load(), seam);
        if (journaled) {
            assertThat(restarted.durable()).as("B's issue numbers recovered from its journal").isEqualTo(b.durable());
        }
        restarted.receiveSyncReply(stale);
        a.startSession();
        assertThat(c.receiveNote(sent(a.sendNote())).verdict()).as("the new A.0 was unprocessed: A delivers it now")
                .isEqualTo(Verdict.ACCEPTED);
        return restarted;
    }

    @Test
    void aStaleRemovalOfAnOlderIncarnationLeavesTheNewOneAtTheServerThatLostAReplica() {
        S2Server b = run(UnaryOperator.identity(), true);
        assertThat(b.durable().k()).as("B keeps the new A.0, issued after the incarnation the reply removed")
                .containsKey(a0);
        assertThat(b.durable().issues()).containsEntry(a0, 2L);
    }

    /** Control: cores whose merge ignores the removal's incarnation (the seam) drop the new A.0 unprocessed. */
    @Test
    void withoutTheTagTheStaleRemovalTakesTheNewIncarnation() {
        S2Server b = run(S2Server::staleRemovalTakesNewerIncarnation, true);
        assertThat(b.durable().k()).as("B dropped a note the client never processed").doesNotContainKey(a0);
    }

    /**
     * Control of the journal: a core that leaves its issue numbers out of its records
     * ({@link StreamServer#withoutJournaling}) restarts without them, and the stale removal, whose
     * held incarnation it can no longer date, takes the new A.0.
     */
    @Test
    void issueNumbersLeftOutOfTheJournalAreLostInARestartAndTheStaleRemovalApplies() {
        S2Server b = run(s -> (S2Server) s.withoutJournaling(ServerOp.SetIssue.class), false);
        assertThat(b.durable().issues()).as("recovered without the new A.0's issue number").doesNotContainEntry(a0, 2L);
        assertThat(b.durable().k()).as("B dropped a note the client never processed").doesNotContainKey(a0);
    }
}
