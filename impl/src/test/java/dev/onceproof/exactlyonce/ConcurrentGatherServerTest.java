package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The handlers {@link ConcurrentGatherServer} gained so the concurrent runtime can purge and run
 * Strategy 5's and 6's syncs: each runs its core step under the monitor, the syncs wait while an
 * aDeliver outcome is unknown, and a handler of the wrong strategy or a bad message is refused
 * without a change. (The interleavings are Lincheck's: conformance's exactlyonce Lincheck suite.)
 */
class ConcurrentGatherServerTest {

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");
    static final NoteId X = NoteId.global("x");

    final ManualEoClock clock = new ManualEoClock(10);

    static <T extends EoMessage> T sent(ServerStep step, Class<T> type) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.Send)
                .map(e -> ((ServerEffect.Send) e).message()).filter(type::isInstance).map(type::cast)
                .findFirst().orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " in " + step));
    }

    /** Servers A and B of one strategy holding x; the client's session at A has delivered x. */
    final class World {
        final ConcurrentGatherServer a;
        final ConcurrentGatherServer b;

        World(Strategy strategy) {
            GatherServer coreA = core(A, strategy);
            GatherServer coreB = core(B, strategy);
            Replication.atOnce(coreA.createNote(X, "x"), s -> s.equals(A) ? coreA : coreB); // atomic CreateNote
            a = new ConcurrentGatherServer(coreA, ConcurrentGatherServer.Durable.NONE);
            b = new ConcurrentGatherServer(coreB, ConcurrentGatherServer.Durable.NONE);
        }

        GatherServer core(ServerId self, Strategy strategy) {
            long tr = strategy == Strategy.S5 ? 4 : 0;
            long tu = strategy == Strategy.S5 ? 1 : 0;
            return (GatherServer) strategy.config(C, new TreeSet<>(List.of(A, B)), 0).times(tr, tu, 0)
                    .server(self, clock, strategy.initialState());
        }

        /** A session at A whose gather asked B; then delivering. */
        void sessionAtA() {
            a.startSession();
            for (ServerEffect e : a.reqAll().effects()) {
                if (e instanceof ServerEffect.Send s && s.message() instanceof EoMessage.DRequest q) {
                    try {
                        a.recvD(sent(b.replyD(q), EoMessage.DReply.class));
                    } catch (InterruptedException ex) {
                        throw new AssertionError(ex);
                    }
                }
            }
            assertThat(a.endGather().outcome()).isEqualTo("delivering");
        }
    }

    @Test
    void recvPurgeSyncPurgesWhatEveryServerHasInD() throws Exception {
        World w = new World(Strategy.S4);
        w.sessionAtA();
        assertThat(w.a.aDeliverNext((session, note) -> true).outcome()).isEqualTo("delivered");
        // A's D reaches B (B merges it), then B's D reaches A: every server has x in D, so A purges it.
        assertThat(w.b.recvPurgeSync(sent(w.a.sync(B), EoMessage.DSync.class)).outcome()).isEqualTo("merged");
        assertThat(w.b.d()).containsExactly(X);
        assertThat(w.a.recvPurgeSync(sent(w.b.sync(A), EoMessage.DSync.class)).outcome()).isEqualTo("merged");
        assertThat(w.a.k()).doesNotContain(X);
        assertThat(w.a.d()).doesNotContain(X);
        // A's K without x tells B that A purged it: B purges too.
        w.b.recvPurgeSync(sent(w.a.sync(B), EoMessage.DSync.class));
        assertThat(w.b.k()).doesNotContain(X);
    }

    @Test
    void learnSyncRecordsWithoutMerging() throws Exception {
        World w = new World(Strategy.S4);
        w.sessionAtA();
        w.a.aDeliverNext((session, note) -> true);
        assertThat(w.b.learnSync(sent(w.a.sync(B), EoMessage.DSync.class)).outcome()).isEqualTo("learned");
        assertThat(w.b.d()).isEmpty();
    }

    @Test
    void aBadSyncIsRefusedNamingTheFieldAndChangesNothing() throws Exception {
        World w = new World(Strategy.S4);
        w.sessionAtA();
        w.a.aDeliverNext((session, note) -> true);
        EoMessage.DSync toA = sent(w.b.sync(A), EoMessage.DSync.class);
        GatherDurableState before = w.a.durable();
        assertThatThrownBy(() -> w.b.recvPurgeSync(toA)).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("to");
        assertThatThrownBy(() -> w.b.learnSync(toA)).isInstanceOf(InvalidMessageException.class);
        assertThat(w.a.durable()).isEqualTo(before);
        assertThat(w.b.d()).isEmpty();
    }

    /** The step interface on the wrapper: a whole Strategy 5 session through {@link EoServer} alone. */
    @Test
    void theStepInterfaceDrivesTheWrapper() {
        GatherServer coreA = new World(Strategy.S5).core(A, Strategy.S5);
        GatherServer coreB = new World(Strategy.S5).core(B, Strategy.S5);
        List<Note> processed = new java.util.ArrayList<>();
        EoServer a = new ConcurrentGatherServer(coreA, ConcurrentGatherServer.Durable.NONE, (session, note) -> processed.add(note),
                ConcurrentGatherServer.AttemptLog.BEFORE_CALL, ConcurrentGatherServer.Deferral.WAIT);
        EoServer b = new ConcurrentGatherServer(coreB, ConcurrentGatherServer.Durable.NONE);
        assertThat(a.strategy()).isEqualTo(Strategy.S5);
        Replication.atOnce(a.createNote(java.util.Optional.of(X), "x"), s -> s.equals(A) ? a : b);
        a.startSession();
        for (ServerEffect e : coreA.reqAll().effects()) {
            EoMessage.DRequest q = (EoMessage.DRequest) ((ServerEffect.Send) e).message();
            assertThat(a.receive(sent(b.receive(q), EoMessage.DReply.class)).outcome()).isEqualTo("merged");
        }
        assertThat(coreA.endGather().outcome()).isEqualTo("delivering");
        assertThat(a.deliverNext().outcome()).isEqualTo("delivered");
        assertThat(processed).extracting(Note::id).containsExactly(X);
        assertThat(b.receive(sent(a.sync(), EoMessage.DSync.class)).outcome()).isEqualTo("merged");
        assertThat(coreB.d()).containsExactly(X);
        assertThatThrownBy(b::deliverNext).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("aDeliver primitive");
        assertThatThrownBy(a::authorize).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("S5").hasMessageContaining("authorize");
    }

    @Test
    void strategySyncsOfTheWrongStrategyAreRefused() {
        World w = new World(Strategy.S4);
        assertThatThrownBy(w.a::periodicSync).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("S5Server").hasMessageContaining("S4");
        assertThatThrownBy(w.a::pushSync).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("S6Server");
    }

    /**
     * Strategy 5's periodic sync carries a send time that lets a peer skip its pull: sent while the
     * client may be processing x, without x, it would make the peer deliver x again. So it waits
     * for the outcome, and carries x.
     */
    @Test
    void periodicSyncWaitsForAnUnknownOutcome() throws Exception {
        World w = new World(Strategy.S5);
        w.sessionAtA();
        CountDownLatch calling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<ServerStep> delivery = CompletableFuture.supplyAsync(() -> w.a.aDeliverNext((s, n) -> {
            calling.countDown();
            try {
                return release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }));
        assertThat(calling.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(w.a.syncDue()).isTrue();
        CompletableFuture<ServerStep> sync = CompletableFuture.supplyAsync(() -> {
            try {
                return w.a.periodicSync();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(200);
        assertThat(sync).isNotDone();
        assertThat(w.a.unresolved()).containsKey(X);
        release.countDown();
        assertThat(delivery.get(10, TimeUnit.SECONDS).outcome()).isEqualTo("delivered");
        EoMessage.DSync m = sent(sync.get(10, TimeUnit.SECONDS), EoMessage.DSync.class);
        assertThat(m.d()).containsExactly(X);
        assertThat(w.a.syncDue()).isFalse();
    }

    @Test
    void pushSyncAfterASession() throws Exception {
        World w = new World(Strategy.S6);
        w.sessionAtA();
        w.a.aDeliverNext((session, note) -> true);
        assertThat(w.a.endSession().outcome()).isEqualTo("ended");
        assertThat(w.a.pushPending()).isTrue();
        assertThat(sent(w.a.pushSync(), EoMessage.DSync.class).d()).containsExactly(X);
        assertThat(w.a.pushPending()).isFalse();
    }

    @Test
    void crashKeepsAnUnknownOutcomeUntilItIsReported() {
        World w = new World(Strategy.S4);
        w.sessionAtA();
        // The server crashes while the call is out (the call runs outside the monitor): the
        // session is gone, the attempt is still unresolved, and its outcome is still recorded.
        ServerStep done = w.a.aDeliverNext((session, note) -> {
            w.a.crash();
            assertThat(w.a.phase()).isEqualTo(GatherServer.Phase.IDLE);
            assertThat(w.a.unresolved()).containsOnlyKeys(X);
            return true;
        });
        assertThat(done.outcome()).isEqualTo("delivered");
        assertThat(w.a.unresolved()).isEmpty();
        assertThat(w.a.d()).containsExactly(X);
    }

    /**
     * The {@link ConcurrentGatherServer.Deferral#ANSWER_AT_ONCE} control does what its Lincheck
     * tests rely on: while the call for x is out, a D request and a sync are answered at once,
     * without x (the safeguard would make them wait, see {@link #periodicSyncWaitsForAnUnknownOutcome}).
     */
    @Test
    void theAnswerAtOnceControlRepliesWithoutTheNoteInFlight() {
        GatherServer coreA = S4Server.fresh(GatherConfig.s4(A, C, new TreeSet<>(List.of(A, B))), clock);
        GatherServer coreB = S4Server.fresh(GatherConfig.s4(B, C, new TreeSet<>(List.of(A, B))), clock);
        Replication.atOnce(coreA.createNote(X, "x"), s -> s.equals(A) ? coreA : coreB); // atomic CreateNote
        ConcurrentGatherServer a = new ConcurrentGatherServer(coreA, ConcurrentGatherServer.Durable.NONE,
                ConcurrentGatherServer.AttemptLog.BEFORE_CALL, ConcurrentGatherServer.Deferral.ANSWER_AT_ONCE);
        a.startSession();
        a.recvD(new EoMessage.DReply(B, A, C, 1, clock.now(), new TreeSet<>()));
        assertThat(a.endGather().outcome()).isEqualTo("delivering");
        ServerStep done = a.aDeliverNext((session, note) -> {
            try {
                EoMessage.DReply reply = sent(a.replyD(new EoMessage.DRequest(B, A, C, 7)), EoMessage.DReply.class);
                assertThat(reply.d()).isEmpty();
                assertThat(sent(a.sync(B), EoMessage.DSync.class).d()).isEmpty();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            assertThat(a.unresolved()).containsOnlyKeys(X);
            return true;
        });
        assertThat(done.outcome()).isEqualTo("delivered");
        assertThat(a.d()).containsExactly(X);
    }

    /**
     * The D reply of a request that arrives through the step interface ({@link EoServer#receive}, the
     * one wrapper's deferral) while the call for x is out: the {@code deferral}'s reply, from a
     * handler thread started during the call. With {@link ConcurrentServer.Deferral#WAIT} the handler
     * is seen waiting on the lock before the call returns, and replies after it, with x; the
     * control answers at once, without x.
     */
    private EoMessage.DReply replyWhileTheCallIsOut(ConcurrentServer.Deferral deferral) throws Exception {
        GatherServer coreA = S4Server.fresh(GatherConfig.s4(A, C, new TreeSet<>(List.of(A, B))), clock);
        GatherServer coreB = S4Server.fresh(GatherConfig.s4(B, C, new TreeSet<>(List.of(A, B))), clock);
        Replication.atOnce(coreA.createNote(X, "x"), s -> s.equals(A) ? coreA : coreB); // atomic CreateNote
        ConcurrentGatherServer a = new ConcurrentGatherServer(coreA, ConcurrentGatherServer.Durable.NONE,
                ConcurrentGatherServer.AttemptLog.BEFORE_CALL, deferral);
        a.startSession();
        a.recvD(new EoMessage.DReply(B, A, C, 1, clock.now(), new TreeSet<>()));
        assertThat(a.endGather().outcome()).isEqualTo("delivering");
        CompletableFuture<ServerStep> reply = new CompletableFuture<>();
        Thread handler = new Thread(() -> reply.complete(a.receive(new EoMessage.DRequest(B, A, C, 7))));
        ServerStep done = a.aDeliverNext((session, note) -> {
            handler.start();
            // Wait (bounded) until the handler waits on the lock or has replied: no timing assumption.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (handler.getState() != Thread.State.WAITING && !reply.isDone() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(reply.isDone()).as("replied while the outcome was unknown")
                    .isEqualTo(deferral == ConcurrentServer.Deferral.ANSWER_AT_ONCE);
            return true;
        });
        assertThat(done.outcome()).isEqualTo("delivered");
        return sent(reply.get(10, TimeUnit.SECONDS), EoMessage.DReply.class);
    }

    @Test
    void aRequestForDThroughTheStepInterfaceWaitsForAnUnknownOutcome() throws Exception {
        assertThat(replyWhileTheCallIsOut(ConcurrentServer.Deferral.WAIT).d()).containsExactly(X);
    }

    /** Control: the answer-at-once seam replies during the call, without x. */
    @Test
    void aRequestForDAnsweredAtOnceOmitsTheNoteInFlight() throws Exception {
        assertThat(replyWhileTheCallIsOut(ConcurrentServer.Deferral.ANSWER_AT_ONCE).d()).isEmpty();
    }

    /**
     * A store that notes which record logged the aDeliver attempt and what is committed, and checks
     * from another thread, during each commit, that the server's lock is free.
     */
    static final class Watched implements ConcurrentGatherServer.Durable {
        long appended;
        volatile long committed;
        long attemptSeq;
        ConcurrentGatherServer server;
        boolean lockFreeDuringEveryCommit = true;

        @Override
        public synchronized long append(ServerEffect.RecordGather record) {
            if (record.ops().isEmpty()) {
                return appended;
            }
            appended++;
            if (record.ops().stream().anyMatch(op -> op instanceof GatherOp.LogAttempt)) {
                attemptSeq = appended;
            }
            return appended;
        }

        @Override
        public synchronized long lastSeq() {
            return appended;
        }

        @Override
        public void commit(long seq) {
            if (server != null) {
                try {
                    CompletableFuture.supplyAsync(server::k).get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    lockFreeDuringEveryCommit = false;
                }
            }
            committed = Math.max(committed, seq);
        }
    }

    /** Whether the attempt's record was committed when the primitive was called (null: no attempt appended). */
    private Boolean attemptDurableAtCall(ConcurrentGatherServer.AttemptLog attemptLog, Watched store) {
        GatherServer coreA = S4Server.fresh(GatherConfig.s4(A, C, new TreeSet<>(List.of(A, B))), clock);
        GatherServer coreB = S4Server.fresh(GatherConfig.s4(B, C, new TreeSet<>(List.of(A, B))), clock);
        Replication.atOnce(coreA.createNote(X, "x"), s -> s.equals(A) ? coreA : coreB); // atomic CreateNote
        ConcurrentGatherServer a = new ConcurrentGatherServer(coreA, store, attemptLog);
        store.server = a;
        a.startSession();
        a.recvD(new EoMessage.DReply(B, A, C, 1, clock.now(), new TreeSet<>()));
        assertThat(a.endGather().outcome()).isEqualTo("delivering");
        Boolean[] seen = new Boolean[1];
        ServerStep done = a.aDeliverNext((session, note) -> {
            seen[0] = store.attemptSeq > 0 && store.committed >= store.attemptSeq;
            return true;
        });
        assertThat(done.outcome()).isEqualTo("delivered");
        return seen[0];
    }

    /**
     * ServerEffect.ADeliver's rule with group commit: the record that logs the attempt is committed
     * before aDeliver is called (appended under the lock, committed after it, then the call), and
     * no commit runs with the server's lock held. Control: {@link ConcurrentGatherServer.AttemptLog#AFTER_CALL}
     * calls first and logs afterwards, and the same check sees the attempt not durable at the call.
     */
    @Test
    void theAttemptIsDurableBeforeTheCallAndNoCommitHoldsTheLock() {
        Watched store = new Watched();
        assertThat(attemptDurableAtCall(ConcurrentGatherServer.AttemptLog.BEFORE_CALL, store)).isTrue();
        assertThat(store.lockFreeDuringEveryCommit).isTrue();
        assertThat(attemptDurableAtCall(ConcurrentGatherServer.AttemptLog.AFTER_CALL, new Watched()))
                .as("control: the call before its attempt is logged").isFalse();
    }
}
