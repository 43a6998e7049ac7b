package dev.onceproof.exactlyonce;

import static dev.onceproof.exactlyonce.CoresTest.A;
import static dev.onceproof.exactlyonce.CoresTest.B;
import static dev.onceproof.exactlyonce.CoresTest.C;
import static dev.onceproof.exactlyonce.CoresTest.ack;
import static dev.onceproof.exactlyonce.CoresTest.config;
import static dev.onceproof.exactlyonce.CoresTest.s2ReplicatedAtOnce;
import static dev.onceproof.exactlyonce.CoresTest.send;
import static dev.onceproof.exactlyonce.CoresTest.sent;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Strategy 2 reuses wire ids, so the cores must tell incarnations apart (notes Z19) where the wire
 * id cannot: a removal of an old x.s must not remove the new x.s, and HandleClient must walk a
 * stream in incarnation order (the spec's FirstOfStream over Ord).
 */
class S2IncarnationTest {

    private final ManualEoClock clock = new ManualEoClock(0);

    /** A's stream with W = 2 up to the reuse of A.0, B's sync request built just before it. */
    private EoMessage.SyncRequest upToTheReuse(S2Server a, S2Server b, S2Client c) {
        for (String body : new String[] {"first", "second"}) {
            b.receiveReplica(send(a.createNote(body), EoMessage.Replica.class));
            a.startSession();
            a.receiveAck(ack(c.receiveNote(sent(a.sendNote()))));
            a.endSession();
            a.receiveSyncReply(send(b.handleSync(send(a.startSync(), EoMessage.SyncRequest.class)),
                    EoMessage.SyncReply.class));
            clock.advance(3); // T_e: Condition 1 for the next number
        }
        // B's periodic sync leaves now, listing A.0 (first incarnation) and A.1 as removed ...
        EoMessage.SyncRequest stale = send(b.startSync(), EoMessage.SyncRequest.class);
        assertThat(stale.removed()).contains(NoteId.sequenced(A, 0));
        // ... and A reuses A.0 before it arrives (well within T_e).
        ServerStep reuse = a.createNote("third");
        assertThat(reuse.outcome()).isEqualTo("created A.0");
        b.receiveReplica(send(reuse, EoMessage.Replica.class));
        return stale;
    }

    /** L113 with L87 (a note not yet processed is in every K): the stale removal spares A.0's new incarnation. */
    @Test
    void aRemovalOfTheOldIncarnationDoesNotRemoveTheNewOne() {
        S2Server a = s2ReplicatedAtOnce(config(A, 2), clock, 2, true);
        S2Server b = s2ReplicatedAtOnce(config(B, 2), clock, 2, true);
        S2Client c = S2Client.fresh(C, 2);
        a.handleSync(upToTheReuse(a, b, c));
        assertThat(a.durable().k()).containsOnlyKeys(NoteId.sequenced(A, 0));
        b.receiveSyncReply(send(a.handleSync(send(b.startSync(), EoMessage.SyncRequest.class)),
                EoMessage.SyncReply.class));
        assertThat(b.durable().k()).containsOnlyKeys(NoteId.sequenced(A, 0));
        b.startSession();
        assertThat(c.receiveNote(sent(b.sendNote())).verdict()).isEqualTo(Verdict.ACCEPTED);
    }

    /**
     * Control: a core that applies every removal (both seams: no watermark, and removals not naming
     * their incarnation) loses the third note everywhere. Either rule alone keeps it: the removal's
     * tag (issue 0) names an older incarnation than the one held (issue 2), which is why TLC finds
     * the watermark redundant under the tag (exactlyonce-control-s2msg-async-tagged-no-watermark).
     */
    @Test
    void withoutIncarnationsTheStaleRemovalLosesTheNewNote() {
        S2Server a = s2ReplicatedAtOnce(config(A, 2), clock, 2, false).staleRemovalTakesNewerIncarnation();
        S2Server b = s2ReplicatedAtOnce(config(B, 2), clock, 2, false).staleRemovalTakesNewerIncarnation();
        S2Client c = S2Client.fresh(C, 2);
        a.handleSync(upToTheReuse(a, b, c));
        assertThat(a.durable().k()).isEmpty();
        b.receiveSyncReply(send(a.handleSync(send(b.startSync(), EoMessage.SyncRequest.class)),
                EoMessage.SyncReply.class));
        assertThat(b.durable().k()).as("never processed, gone from every K").isEmpty();
    }

    /** The tag alone (watermark seam off) spares the new incarnation, as with the watermark alone. */
    @Test
    void theRemovalsIncarnationAloneSparesTheNewNote() {
        S2Server a = s2ReplicatedAtOnce(config(A, 2), clock, 2, false);
        S2Server b = s2ReplicatedAtOnce(config(B, 2), clock, 2, false);
        S2Client c = S2Client.fresh(C, 2);
        a.handleSync(upToTheReuse(a, b, c));
        assertThat(a.durable().k()).containsOnlyKeys(NoteId.sequenced(A, 0));
        assertThat(a.durable().issues()).containsEntry(NoteId.sequenced(A, 0), 2L);
    }

    /**
     * The spec's FirstOfStream orders a stream by Ord(i) = inc * W + seq. With W = 3 and K holding
     * A.0 (the first note) and A.2 (the third; A.1 already removed here), A.0 goes first. The wire-id
     * rule of the old core ("offer x.s if x.(s-1 mod W) is not in K") reads A.2 as A.0's predecessor
     * and offers A.2 first, out of order. (The spec's invariants keep a stream's K contiguous, where
     * both rules agree; the core must not depend on that.)
     */
    @Test
    void handleClientWalksAStreamInIncarnationOrder() {
        Note first = new Note(NoteId.sequenced(A, 0), C, "first");
        Note third = new Note(NoteId.sequenced(A, 2), C, "third");
        TreeMap<NoteId, Note> k = new TreeMap<>();
        k.put(first.id(), first);
        k.put(third.id(), third);
        TreeMap<NoteId, Long> entered = new TreeMap<>();
        entered.put(first.id(), 1L);
        entered.put(third.id(), 3L);
        S2Server b = new S2Server(config(B, 2), clock, 3, new ServerDurableState(k, new TreeSet<>(), 0,
                new TreeSet<>(), 0, new TreeMap<>(), new TreeMap<>(), entered, 3));
        b.startSession();
        assertThat(b.sendNote(third.id()).outcome()).as("A.0 is older").isEqualTo("refused");
        assertThat(sent(b.sendNote()).note()).isEqualTo(first);
    }
}
