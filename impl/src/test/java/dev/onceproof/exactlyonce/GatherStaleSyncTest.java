package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
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
    static GatherWorld staleSync(boolean watermark) {
        GatherWorld world = new GatherWorld(Strategy.S4, GatherWorld.Primitive.ATOMIC,
                new long[] {0, 0, 0}, null);
        if (!watermark) {
            world.withoutWatermark();
        }
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

    /** The sync carries B's watermark 0: it could not have known n1, so A keeps n1 in K and D. */
    @Test
    void aSyncBuiltBeforeANoteExistedDoesNotPurgeItsDelivery() {
        GatherWorld world = staleSync(true);
        assertThat(world.duplicates()).as("NoDuplicateDelivery").isEmpty();
        assertThat(world.reattempts).as("NoReattempt").isEmpty();
        assertThat(world.processed).containsEntry("n1", 1);
    }

    /** Control: the same schedule on cores that ignore the watermark (the seam) delivers n1 twice. */
    @Test
    void withoutTheWatermarkTheStaleSyncDuplicates() {
        assertThat(staleSync(false).duplicates()).containsExactly("n1 x2");
    }

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");
    static final ServerId X = ServerId.of("X");
    static final NoteId N1 = NoteId.global("n1");

    private static S4Server server(ServerId self, boolean watermark) {
        return new S4Server(GatherConfig.s4(self, C, new TreeSet<>(List.of(A, B, X))), new ManualEoClock(0),
                GatherDurableState.initial(), watermark);
    }

    private static EoMessage.DSync sync(S4Server from, ServerId to) {
        return S4CoreTest.sends(from.purgeSync(to), EoMessage.DSync.class).get(0);
    }

    /** startSession, every D request answered by its peer, endGather. */
    private static void gather(S4Server s, Map<ServerId, S4Server> peers) {
        s.startSession();
        for (EoMessage.DRequest q : S4CoreTest.sends(s.reqAll(), EoMessage.DRequest.class)) {
            s.recvD(S4CoreTest.sends(peers.get(q.to()).replyD(q), EoMessage.DReply.class).get(0));
        }
        assertThat(s.endGather().outcome()).isEqualTo("delivering");
    }

    /**
     * The third rule of recvPurgeSync (every server has i in D or purged it) reads purging from the K
     * a peer last reported, which may be stale too: X's sync (K = {}) is built before n1 exists and
     * reaches A only as knowledge ({@code learnSync}) after A delivered n1. B's current sync then
     * shows n1 in B's D; "X purged n1" by the stale K would make A purge it, B follow by K-difference,
     * and X, which holds n1 undelivered, gather two Ds without it. Returns X's next step after that.
     */
    static ServerStep staleKnowledge(boolean watermark) {
        S4Server a = server(A, watermark);
        S4Server b = server(B, watermark);
        S4Server x = server(X, watermark);
        Map<ServerId, S4Server> peers = Map.of(A, a, B, b, X, x);
        EoMessage.DSync stale = sync(x, A);                 // X -> A: K = {}, held in the network
        Replication.atOnce(a.createNote(N1, "one"), peers::get);  // the round at once: atomic CreateNote
        gather(a, peers);
        assertThat(a.aDeliver(a.session(), N1).outcome()).isEqualTo("calling");
        a.aDeliverOk(a.session(), N1);
        a.endSession();
        b.recvPurgeSync(sync(a, B));                         // n1 into B's D
        a.learnSync(stale);                                  // the stale sync lands, as knowledge
        a.recvPurgeSync(sync(b, A));
        b.recvPurgeSync(sync(a, B));
        gather(x, peers);
        return x.aDeliverNext();
    }

    @Test
    void aStaleReportedKDoesNotCountAsAPurge() {
        assertThat(staleKnowledge(true).outcome()).as("X knows n1 delivered").isEqualTo("idle");
    }

    /** Control: without the watermark A and B purge n1 and X calls aDeliver(n1) a second time. */
    @Test
    void withoutTheWatermarkAStaleReportedKDeliversAgain() {
        ServerStep step = staleKnowledge(false);
        assertThat(step.outcome()).isEqualTo("calling");
        assertThat(step.effects()).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(ServerEffect.ADeliver.class,
                call -> assertThat(call.note().id()).isEqualTo(N1)));
    }
}
