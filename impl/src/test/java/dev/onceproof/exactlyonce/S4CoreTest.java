package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Strategy 4's server core: the gather, aDeliver and its log, sessions, purging, bad input. */
class S4CoreTest {

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");
    static final ServerId X = ServerId.of("X");
    static final NoteId M1 = NoteId.global("m1");
    static final NoteId M2 = NoteId.global("m2");
    final ManualEoClock clock = new ManualEoClock(0);

    static GatherConfig cfg(ServerId self) {
        return GatherConfig.s4(self, C, new TreeSet<>(List.of(A, B, X)));
    }

    S4Server server(ServerId self) {
        return S4Server.fresh(cfg(self), clock);
    }

    static <T extends EoMessage> List<T> sends(ServerStep step, Class<T> type) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.Send)
                .map(e -> ((ServerEffect.Send) e).message()).filter(type::isInstance).map(type::cast).toList();
    }

    /** Three servers holding m1 and m2. */
    final S4Server a = server(A);
    final S4Server b = server(B);
    final S4Server x = server(X);

    S4CoreTest() {
        for (NoteId id : List.of(M1, M2)) {
            // The replication round to its end at once: the spec's atomic CreateNote.
            Replication.atOnce(a.createNote(id, "body " + id.text()), this::peer);
        }
    }

    S4Server peer(ServerId t) {
        return t.equals(A) ? a : t.equals(B) ? b : x;
    }

    /** startSession, every D request answered, endGather. */
    void gather(S4Server s) {
        s.startSession();
        for (EoMessage.DRequest q : sends(s.reqAll(), EoMessage.DRequest.class)) {
            s.recvD(sends(peer(q.to()).replyD(q), EoMessage.DReply.class).get(0));
        }
        assertThat(s.endGather().outcome()).isEqualTo("delivering");
    }

    /** One successful aDeliver of i by s's live session. */
    void deliver(S4Server s, NoteId i) {
        ServerStep call = s.aDeliver(s.session(), i);
        assertThat(call.outcome()).isEqualTo("calling");
        assertThat(s.aDeliverOk(s.session(), i).outcome()).isEqualTo("delivered");
    }

    @Test
    void example4TheGatherTellsBWhatADelivered() {
        gather(a);
        deliver(a, M1);
        a.endSession();
        gather(b);
        assertThat(b.d()).contains(M1);
        assertThat(b.aDeliver(b.session(), M1).outcome()).isEqualTo("refused");
        ServerStep next = b.aDeliverNext();
        assertThat(((ServerEffect.ADeliver) next.effects().get(1)).note().id()).isEqualTo(M2);
    }

    @Test
    void theAttemptIsLoggedBeforeTheCallAndTheSuccessWithD() {
        gather(a);
        ServerStep call = a.aDeliver(a.session(), M1);
        assertThat(call.effects()).hasSize(2);
        assertThat(((ServerEffect.RecordGather) call.effects().get(0)).ops())
                .containsExactly(new GatherOp.LogAttempt(M1, 1));
        assertThat(call.effects().get(1)).isEqualTo(new ServerEffect.ADeliver(1, a.durable().k().get(M1)));
        ServerStep ok = a.aDeliverOk(1, M1);
        assertThat(((ServerEffect.RecordGather) ok.effects().get(0)).ops())
                .as("the success and D in one operation: the commit point").containsExactly(new GatherOp.ADeliverOk(M1, 1));
        assertThat(a.durable().log().get(M1)).isEqualTo(new GatherDurableState.Attempt(1, true));
        assertThat(a.durable().d()).contains(M1);
    }

    @Test
    void noReattemptAfterSuccessNorWhileACallIsOpen() {
        gather(a);
        long s = a.session();
        a.aDeliver(s, M1);
        assertThat(a.aDeliver(s, M2).outcome()).as("one call at a time").isEqualTo("refused");
        assertThat(a.aDeliver(s, M1).outcome()).isEqualTo("refused");
        a.aDeliverOk(s, M1);
        assertThat(a.aDeliver(s, M1).outcome()).as("NoReattempt after success").isEqualTo("refused");
        assertThatThrownBy(() -> a.aDeliverOk(s, M1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no such call awaits");
    }

    @Test
    void anUnresolvedAttemptBlocksDeliveryAndHidesD() {
        gather(a);
        a.aDeliver(a.session(), M1);
        // A crashes mid-call: rebuilt from what it made durable.
        S4Server a2 = new S4Server(cfg(A), clock, a.durable());
        assertThat(a2.unresolved()).containsEntry(M1, 1L);
        assertThat(a2.replyD(new EoMessage.DRequest(B, A, C, 1)).outcome()).isEqualTo("deferred");
        assertThat(a2.purgeSync(B).outcome()).isEqualTo("deferred");
        a2.startSession();
        for (EoMessage.DRequest q : sends(a2.reqAll(), EoMessage.DRequest.class)) {
            a2.recvD(sends(peer(q.to()).replyD(q), EoMessage.DReply.class).get(0));
        }
        assertThat(a2.endGather().outcome()).isEqualTo("unresolved");
        // The primitive's own log says the call succeeded: reported for the old session.
        a2.aDeliverOk(1, M1);
        assertThat(a2.d()).contains(M1);
        assertThat(a2.endGather().outcome()).isEqualTo("delivering");
        assertThat(a2.aDeliverNext().effects().get(1)).isEqualTo(new ServerEffect.ADeliver(2, a.durable().k().get(M2)));
    }

    @Test
    void aNewSessionReplacesTheOldAndTheOldOnesCallIsRefused() {
        gather(a);
        long old = a.session();
        gather(a);
        assertThat(a.session()).isGreaterThan(old);
        assertThat(a.aDeliver(old, M1).outcome()).as("Z12: a lingering session's call").isEqualTo("refused");
        assertThat(a.aDeliver(a.session(), M1).outcome()).isEqualTo("calling");
    }

    @Test
    void sessionIdsSurviveACrash() {
        gather(a);
        long before = a.session();
        S4Server a2 = new S4Server(cfg(A), clock, a.durable());
        assertThat(a2.phase()).isEqualTo(GatherServer.Phase.IDLE);
        a2.startSession();
        assertThat(a2.session()).isGreaterThan(before);
        assertThat(a2.aDeliver(before, M1).outcome()).isEqualTo("refused");
    }

    @Test
    void theGatherNeedsEveryOtherServer() {
        a.startSession();
        assertThat(a.stale()).containsExactly(B, X);
        List<EoMessage.DRequest> reqs = sends(a.reqAll(), EoMessage.DRequest.class);
        a.recvD(sends(b.replyD(reqs.get(0)), EoMessage.DReply.class).get(0));
        assertThat(a.endGather().outcome()).isEqualTo("refused");
        assertThat(a.aDeliver(a.session(), M1).outcome()).isEqualTo("refused");
        assertThat(a.gatherFail().outcome()).isEqualTo("aborted");
        assertThat(a.phase()).isEqualTo(GatherServer.Phase.IDLE);
        assertThat(a.reqD(X).outcome()).isEqualTo("refused");
    }

    @Test
    void aReplyToAnEndedSessionIsIgnored() {
        a.startSession();
        EoMessage.DRequest q = sends(a.reqD(B), EoMessage.DRequest.class).get(0);
        EoMessage.DReply late = sends(b.replyD(q), EoMessage.DReply.class).get(0);
        a.startSession();
        assertThat(a.recvD(late).outcome()).isEqualTo("ignored");
        assertThat(a.replied()).isEmpty();
    }

    @Test
    void anErrorAbortsTheSessionAndTheNoteMayBeTriedAgain() {
        gather(a);
        long s = a.session();
        a.aDeliver(s, M1);
        assertThat(a.aDeliverErr(s, M1).outcome()).isEqualTo("failed");
        assertThat(a.phase()).isEqualTo(GatherServer.Phase.IDLE);
        assertThat(a.durable().log()).isEmpty();
        assertThat(a.d()).doesNotContain(M1);
        gather(a);
        assertThat(a.aDeliver(a.session(), M1).outcome()).isEqualTo("calling");
    }

    @Test
    void endGatherPurgesWhatEveryServerHasInD() {
        gather(a);
        deliver(a, M1);
        a.endSession();
        gather(x);
        // X heard m1 from A only (B's D lacks it): kept, in D.
        assertThat(x.k()).contains(M1);
        assertThat(x.d()).contains(M1);
        x.endSession();
        gather(b);
        // B hears m1 from both A and X: P = {m1}, purged at B (App. A.6).
        assertThat(b.k()).doesNotContain(M1);
        assertThat(b.d()).doesNotContain(M1);
        assertThat(b.k()).contains(M2);
        // A has m1 in D and B's K no longer has it: purged there, so A drops it too (K-difference).
        a.recvPurgeSync(sends(b.purgeSync(A), EoMessage.DSync.class).get(0));
        assertThat(a.k()).doesNotContain(M1).contains(M2);
        // X has m1 in D too, but a plain RecvSync (Strategies 5-6) never purges.
        x.recvSync(sends(b.purgeSync(X), EoMessage.DSync.class).get(0));
        assertThat(x.k()).contains(M1);
    }

    @Test
    void aPurgeSyncDropsWhatEveryServerHasInDAndWhatTheSenderPurged() {
        gather(a);
        deliver(a, M1);
        a.endSession();
        b.recvPurgeSync(sends(a.purgeSync(B), EoMessage.DSync.class).get(0));
        x.recvPurgeSync(sends(a.purgeSync(X), EoMessage.DSync.class).get(0));
        assertThat(b.d()).contains(M1);
        // A learns every D has m1 and purges it.
        a.recvPurgeSync(sends(b.purgeSync(A), EoMessage.DSync.class).get(0));
        assertThat(a.k()).contains(M1);
        a.recvPurgeSync(sends(x.purgeSync(A), EoMessage.DSync.class).get(0));
        assertThat(a.k()).doesNotContain(M1);
        // A's K no longer has m1, which B has in D: purged there, so B drops it.
        b.recvPurgeSync(sends(a.purgeSync(B), EoMessage.DSync.class).get(0));
        assertThat(b.k()).doesNotContain(M1);
        // An undelivered note missing from a sender's K is kept (its replica may be late, Z1).
        assertThat(b.k()).contains(M2);
    }

    @Test
    void badMessagesAreRefusedNamingTheFieldAndChangeNothing() {
        gather(a);
        GatherDurableState before = a.durable();
        long s = a.session();
        TreeSet<NoteId> d = new TreeSet<>(List.of(M1));
        assertField(() -> a.recvD(new EoMessage.DReply(B, B, C, s, 0, d)), "to");
        assertField(() -> a.recvD(new EoMessage.DReply(A, A, C, s, 0, d)), "from");
        assertField(() -> a.recvD(new EoMessage.DReply(ServerId.of("Z"), A, C, s, 0, d)), "from");
        assertField(() -> a.recvD(new EoMessage.DReply(B, A, ClientId.of("other"), s, 0, d)), "client");
        assertField(() -> a.recvD(new EoMessage.DReply(B, A, C, s, 0,
                new TreeSet<>(List.of(NoteId.sequenced(A, 1))))), "d");
        assertField(() -> new EoMessage.DReply(B, A, C, s, -1, d), "ts");
        assertField(() -> new EoMessage.DReply(B, A, C, 0, 0, d), "session");
        assertField(() -> new EoMessage.DSync(B, A, C, 0, new TreeSet<>(), d), "d");
        assertField(() -> a.recvSync(new EoMessage.DSync(B, X, C, 0, d, d)), "to");
        assertField(() -> a.recvPurgeSync(new EoMessage.DSync(B, A, ClientId.of("z"), 0, d, d)), "client");
        assertField(() -> a.learnSync(new EoMessage.DSync(B, A, C, 0, d, new TreeSet<>(List.of(M2)))), "d");
        assertField(() -> a.replyD(new EoMessage.DRequest(A, A, C, 1)), "from");
        assertField(() -> a.receiveReplica(new EoMessage.Replica(B, A, new Note(NoteId.sequenced(B, 1), C, ""))),
                "note.id");
        assertThat(a.durable()).isEqualTo(before);
        assertThat(a.phase()).isEqualTo(GatherServer.Phase.DELIVER);
        assertThat(a.session()).isEqualTo(s);
    }

    static void assertField(Runnable r, String field) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(InvalidMessageException.class,
                e -> assertThat(e.field()).isEqualTo(field));
    }

    @Test
    void theStoredStateIsCheckedWhenACoreIsBuilt() {
        GatherDurableState bad = new GatherDurableState(new java.util.TreeMap<>(), new TreeSet<>(),
                new java.util.TreeMap<>(java.util.Map.of(ServerId.of("Z"), 3L)), 0, new java.util.TreeMap<>());
        assertThatThrownBy(() -> new S4Server(cfg(A), clock, bad)).hasMessageContaining("stored TS names Z");
        assertThatThrownBy(() -> new GatherDurableState(a.durable().k(), new TreeSet<>(), new java.util.TreeMap<>(), 1,
                new java.util.TreeMap<>(java.util.Map.of(M1, new GatherDurableState.Attempt(1, true)))))
                .hasMessageContaining("D lacks it");
        assertThatThrownBy(() -> new S4Server(new GatherConfig(cfg(A).servers(), Strategy.S5, 10, 1, 0),
                clock, GatherDurableState.initial())).hasMessageContaining("Strategy 4 config");
    }

    @Test
    void theStatelessClientProcessesWhatItIsHandedAndAcknowledges() {
        S4Client c = new S4Client(C);
        assertThat(c.connectTo(A).verdict()).isEqualTo(ConnectVerdict.CONNECTED);
        ClientStep step = c.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(M1, C, "x")));
        assertThat(step.verdict()).isEqualTo(Verdict.ACCEPTED);
        assertThat(step.effects().get(0)).isInstanceOf(ClientEffect.Record.class);
        assertThat(step.effects().get(1)).isInstanceOf(ClientEffect.Send.class);
        assertThatThrownBy(() -> c.connectTo(B)).isInstanceOf(IllegalStateException.class);
        assertField(() -> c.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(NoteId.sequenced(A, 1), C, ""))),
                "note.id");
        c.disconnect();
        assertThat(c.conn()).isEmpty();
    }
}
