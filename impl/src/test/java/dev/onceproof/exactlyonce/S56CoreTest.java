package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Strategies 5 and 6: configuration rules, the stale sets, the clients' connect rules. */
class S56CoreTest {

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");
    static final ServerId X = ServerId.of("X");
    static final NoteId M1 = NoteId.global("m1");
    static final NoteId M2 = NoteId.global("m2");
    static final long TR = 100;
    static final long TU = 10;
    static final long SKEW = 2;
    static final long TE = 5;
    final ManualEoClock clock = new ManualEoClock(1000);

    static ServerConfig servers(ServerId self, long te) {
        return new ServerConfig(self, C, new TreeSet<>(List.of(A, B, X)), te);
    }

    static GatherConfig cfg(ServerId self, Strategy s) {
        return new GatherConfig(servers(self, TE), s, TR, TU, SKEW);
    }

    static <T extends EoMessage> List<T> sends(ServerStep step, Class<T> type) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.Send)
                .map(e -> ((ServerEffect.Send) e).message()).filter(type::isInstance).map(type::cast).toList();
    }

    /** Servers a, b, x of one strategy, all holding m1 and m2. */
    final class World {
        final GatherServer a;
        final GatherServer b;
        final GatherServer x;

        World(Strategy s) {
            a = make(A, s);
            b = make(B, s);
            x = make(X, s);
            for (NoteId id : List.of(M1, M2)) {
                Replication.atOnce(a.createNote(id, ""), this::peer); // the round at once: atomic CreateNote
            }
        }

        GatherServer make(ServerId self, Strategy s) {
            return s == Strategy.S5 ? S5Server.fresh(cfg(self, s), clock)
                    : S6Server.fresh(cfg(self, s), clock);
        }

        GatherServer peer(ServerId t) {
            return t.equals(A) ? a : t.equals(B) ? b : x;
        }

        /** Every D request of s's session answered, then endGather. */
        String gather(GatherServer s) {
            for (EoMessage.DRequest q : sends(s.reqAll(), EoMessage.DRequest.class)) {
                s.recvD(sends(peer(q.to()).replyD(q), EoMessage.DReply.class).get(0));
            }
            return s.endGather().outcome();
        }

        void deliver(GatherServer s, NoteId i) {
            assertThat(s.aDeliver(s.session(), i).outcome()).isEqualTo("calling");
            s.aDeliverOk(s.session(), i);
        }

        /** s's D and clock to every other server, as a periodic or push sync. */
        void broadcast(GatherServer s) {
            ServerStep step = s instanceof S5Server s5 ? s5.periodicSync() : ((S6Server) s).pushSync();
            for (EoMessage.DSync m : sends(step, EoMessage.DSync.class)) {
                peer(m.to()).recvSync(m);
            }
        }
    }

    // ---- configuration ---------------------------------------------------------------------------

    @Test
    void theTimeParametersAreCheckedNamingTheRule() {
        assertThatThrownBy(() -> new GatherConfig(servers(A, 0), Strategy.S5, -1, 1, 0))
                .hasMessageContaining("rule R1: T_r = -1");
        assertThatThrownBy(() -> new GatherConfig(servers(A, 0), Strategy.S6, 0, 0, -3))
                .hasMessageContaining("rule R1: skew = -3");
        assertThatThrownBy(() -> new GatherConfig(servers(A, 0), Strategy.S5, 10, 0, 0))
                .hasMessageContaining("rule R2: T_u = 0");
        // window = 8 - 2*2 - 5 < 0.
        assertThatThrownBy(() -> new GatherConfig(servers(A, TE), Strategy.S5, 8, 1, SKEW))
                .hasMessageContaining("rule R3").hasMessageContaining("negative");
        assertThat(new GatherConfig(servers(A, TE), Strategy.S5, 9, 1, SKEW).window()).isZero();
        // window = 100 - 2*2 - 5 = 91; T_u + T_e = 86 + 5 = 91 is not below it: allowed, but no fast path.
        assertThat(new GatherConfig(servers(A, TE), Strategy.S5, TR, 86, SKEW).fastPathPossible()).isFalse();
        assertThat(new GatherConfig(servers(A, TE), Strategy.S5, TR, 85, SKEW).fastPathPossible()).isTrue();
        assertThat(new GatherConfig(servers(A, 0), Strategy.S5, 0, 1, 0).window()).as("T_r = 0: S4").isZero();
        assertThatThrownBy(() -> new ServerConfig(A, C, new TreeSet<>(List.of(A)), -1)).hasMessageContaining("T_e");
        // Strategies 4 and 6 do not use T_u: no R2/R3 there.
        assertThat(new GatherConfig(servers(A, 0), Strategy.S6, 0, 0, 0).historyMargin()).isZero();
        assertThatThrownBy(() -> new S5Server(cfg(A, Strategy.S6), clock, GatherDurableState.initial()))
                .hasMessageContaining("Strategy 5 config");
        assertThatThrownBy(() -> new S5Client(C, clock, -1, OptionalLong.empty())).hasMessageContaining("rule R1");
    }

    // ---- Strategy 5 ------------------------------------------------------------------------------

    @Test
    void example5CaseIAFreshSyncCarriesTheDelivery() {
        World w = new World(Strategy.S5);
        w.a.startSession();
        assertThat(w.gather(w.a)).isEqualTo("delivering");
        w.deliver(w.a, M1);
        w.a.endSession();
        long end = clock.now();
        // A's periodic sync, sent inside the window of the client's earliest reconnect (end + T_r).
        clock.advance(TR - w.a.config().window() + 1);
        w.broadcast(w.a);
        clock.set(end + TR);
        w.b.startSession();
        // X never synced with B: stale; A's sync is fresh: not pulled.
        assertThat(w.b.stale()).containsExactly(X);
        assertThat(w.b.d()).contains(M1);
        assertThat(w.gather(w.b)).isEqualTo("delivering");
        assertThat(w.b.aDeliver(w.b.session(), M1).outcome()).isEqualTo("refused");
    }

    @Test
    void example5CaseIIAStaleSyncMustBePulled() {
        World w = new World(Strategy.S5);
        w.broadcast(w.a);
        w.broadcast(w.x);
        clock.advance(1);
        w.a.startSession();
        w.gather(w.a);
        w.deliver(w.a, M1);
        w.a.endSession();
        clock.advance(TR);
        w.b.startSession();
        assertThat(w.b.stale()).containsExactly(A, X);
        assertThat(w.b.d()).doesNotContain(M1);
        w.gather(w.b);
        assertThat(w.b.d()).contains(M1);
        assertThat(w.b.ts().get(A)).isEqualTo(clock.now());
    }

    @Test
    void theFreshnessBoundaryIsStrict() {
        S5Server b = S5Server.fresh(cfg(B, Strategy.S5), clock);
        long window = b.config().window();
        b.recvSync(new EoMessage.DSync(A, B, C, clock.now() - window, new TreeSet<>(), new TreeSet<>()));
        b.recvSync(new EoMessage.DSync(X, B, C, clock.now() - window + 1, new TreeSet<>(), new TreeSet<>()));
        b.startSession();
        assertThat(b.stale()).as("TS = now - window is stale (Z10)").containsExactly(A);
    }

    /**
     * The safeguard is the client's promise: a client that connected within T_r would let B trust a
     * sync sent before A's delivery and deliver m1 again; the S5 client refuses that connect.
     */
    @Test
    void aConnectWithinTrIsRefusedAndWouldOtherwiseDuplicate() {
        World w = new World(Strategy.S5);
        w.broadcast(w.a);
        w.broadcast(w.x);
        S5Client client = S5Client.fresh(C, clock, TR);
        clock.advance(1);
        assertThat(client.connectTo(A).verdict()).isEqualTo(ConnectVerdict.CONNECTED);
        w.a.startSession();
        w.gather(w.a);
        w.deliver(w.a, M1);
        w.a.endSession();
        client.endConnection();
        long end = clock.now();
        clock.advance(1);
        ConnectStep early = client.connectTo(B);
        assertThat(early.verdict()).isEqualTo(ConnectVerdict.TOO_SOON);
        assertThat(early.earliest()).hasValue(end + TR);
        assertThat(client.conn()).isEmpty();
        // Control: had it connected anyway, B's TS[A] (sent before the delivery) looks fresh.
        w.b.startSession();
        assertThat(w.b.stale()).isEmpty();
        w.gather(w.b);
        assertThat(w.b.aDeliver(w.b.session(), M1).outcome()).as("duplicate without the promise").isEqualTo("calling");
        clock.set(end + TR - 1);
        assertThat(client.connectTo(B).verdict()).isEqualTo(ConnectVerdict.TOO_SOON);
        clock.advance(1);
        assertThat(client.connectTo(B).verdict()).isEqualTo(ConnectVerdict.CONNECTED);
    }

    @Test
    void aClientThatForgotItsLastEndWaitsTrAfterABootOrACrash() {
        S5Client booted = S5Client.rebooted(C, clock, TR);
        assertThat(booted.connectTo(A).verdict()).isEqualTo(ConnectVerdict.TOO_SOON);
        S5Client c = S5Client.fresh(C, clock, TR);
        c.connectTo(A);
        clock.advance(50);
        c.crash();
        assertThat(c.lastEnd()).hasValue(clock.now());
        clock.advance(TR - 1);
        assertThat(c.connectTo(B).verdict()).isEqualTo(ConnectVerdict.TOO_SOON);
    }

    @Test
    void tsTakesTheMaximumAndRefusesTheFuture() {
        S5Server b = S5Server.fresh(cfg(B, Strategy.S5), clock);
        b.recvSync(new EoMessage.DSync(A, B, C, 990, new TreeSet<>(), new TreeSet<>()));
        b.recvSync(new EoMessage.DSync(A, B, C, 950, new TreeSet<>(), new TreeSet<>()));
        assertThat(b.ts().get(A)).as("a reordered older sync does not move TS back (Z11)").isEqualTo(990);
        GatherDurableState before = b.durable();
        assertThatThrownBy(() -> b.recvSync(new EoMessage.DSync(A, B, C, clock.now() + 2 * SKEW + 1, new TreeSet<>(),
                new TreeSet<>()))).isInstanceOfSatisfying(InvalidMessageException.class,
                        e -> assertThat(e.field()).isEqualTo("ts"));
        assertThat(b.recvSync(new EoMessage.DSync(A, B, C, clock.now() + 2 * SKEW, new TreeSet<>(), new TreeSet<>()))
                .outcome()).isEqualTo("merged");
        assertThat(before.ts().get(A)).isEqualTo(990);
    }

    @Test
    void periodicSyncsAreDueEveryTu() {
        S5Server a = S5Server.fresh(cfg(A, Strategy.S5), clock);
        assertThat(a.syncDue()).isTrue();
        ServerStep step = a.periodicSync();
        assertThat(sends(step, EoMessage.DSync.class)).extracting(EoMessage.DSync::ts).containsOnly(clock.now());
        assertThat(a.syncDue()).isFalse();
        clock.advance(TU);
        assertThat(a.syncDue()).isTrue();
    }

    // ---- Strategy 6 ------------------------------------------------------------------------------

    static EoMessage.HistoryUpload upload(ConnectStep step) {
        return (EoMessage.HistoryUpload) ((ClientEffect.Send) step.effects().get(1)).message();
    }

    @Test
    void example6BPullsFromAOnlyIfItsSyncIsNotFresherThanTheVisit() {
        World w = new World(Strategy.S6);
        S6Client client = new S6Client(C, clock, ClientHistory.never());
        ConnectStep toA = client.connectTo(A);
        assertThat(toA.effects().get(0)).as("H[A] := OPEN is durable before the upload")
                .isEqualTo(new ClientEffect.RecordHistory(ClientHistory.never().opened(A)));
        ((S6Server) w.a).startSession(upload(toA));
        assertThat(w.a.stale()).isEmpty();
        w.gather(w.a);
        w.deliver(w.a, M1);
        w.a.endSession();
        List<ClientEffect> end = client.endConnection();
        assertThat(end).containsExactly(new ClientEffect.RecordHistory(ClientHistory.never().ended(A, clock.now())));
        long t1 = clock.now();
        // A's push arrives at B, sent within the margin: still stale.
        clock.advance(w.a.config().historyMargin());
        w.broadcast(w.a);
        ConnectStep toB = client.connectTo(B);
        ((S6Server) w.b).startSession(upload(toB));
        assertThat(w.b.stale()).as("TS[A] = H[A] + margin is not fresher").containsExactly(A);
        w.b.endSession();
        client.endConnection();
        clock.advance(1);
        w.broadcast(w.a);
        ConnectStep again = client.connectTo(B);
        ((S6Server) w.b).startSession(upload(again));
        assertThat(w.b.stale()).as("X never visited, A's sync fresher than the visit").isEmpty();
        assertThat(w.gather(w.b)).isEqualTo("delivering");
        assertThat(w.b.aDeliver(w.b.session(), M1).outcome()).isEqualTo("refused");
        assertThat(t1).isLessThan(w.b.ts().get(A));
    }

    /**
     * Mutant M6-b's scenario: the client crashes mid-connection after A delivered m1. With the
     * OPEN entry B pulls from A; with a history written only at clean ends (the control) B trusts
     * a sync of A's older than the delivery and would deliver m1 again.
     */
    @Test
    void anOpenEntryAfterACrashForcesThePullThatPreventsADuplicate() {
        World w = new World(Strategy.S6);
        S6Client client = new S6Client(C, clock, ClientHistory.never());
        ((S6Server) w.a).startSession(upload(client.connectTo(A)));
        w.gather(w.a);
        client.endConnection();
        ClientHistory cleanEndOnly = client.history();
        clock.advance(w.a.config().historyMargin() + 1);
        w.broadcast(w.a);
        clock.advance(1);
        ((S6Server) w.a).startSession(upload(client.connectTo(A)));
        w.gather(w.a);
        w.deliver(w.a, M1);
        client.crash();
        w.a.endSession();
        clock.advance(1);
        assertThat(client.history().open()).containsExactly(A);
        ((S6Server) w.b).startSession(upload(client.connectTo(B)));
        assertThat(w.b.stale()).containsExactly(A);
        w.b.endSession();
        // Control: the history a client writing only at clean ends would upload.
        ((S6Server) w.b).startSession(new EoMessage.HistoryUpload(C, B, cleanEndOnly));
        assertThat(w.b.stale()).isEmpty();
        w.gather(w.b);
        assertThat(w.b.aDeliver(w.b.session(), M1).outcome()).as("duplicate without OPEN").isEqualTo("calling");
    }

    @Test
    void anUnknownHistoryPullsFromEveryoneUntilEveryServerWasVisitedAgain() {
        World w = new World(Strategy.S6);
        S6Client client = S6Client.fresh(C, clock);
        EoMessage.HistoryUpload up = upload(client.connectTo(A));
        assertThat(up.history().isUnknown()).isTrue();
        ((S6Server) w.a).startSession(up);
        assertThat(w.a.stale()).containsExactly(B, X);
        w.a.endSession();
        client.endConnection();
        clock.advance(1);
        ((S6Server) w.b).startSession(upload(client.connectTo(B)));
        assertThat(w.b.stale()).as("X still UNKNOWN").containsExactly(A, X);
        w.b.endSession();
        client.endConnection();
        clock.advance(1);
        // Every other server has an entry written after the loss: the per-entry rules apply.
        ((S6Server) w.x).startSession(upload(client.connectTo(X)));
        assertThat(w.x.stale()).containsExactly(A, B);
        clock.advance(w.a.config().historyMargin() + 1);
        w.x.recvSync(sends(((S6Server) w.a).pushSync(), EoMessage.DSync.class).stream()
                .filter(m -> m.to().equals(X)).findFirst().orElseThrow());
        w.x.endSession();
        client.endConnection();
        ((S6Server) w.x).startSession(upload(client.connectTo(X)));
        assertThat(w.x.stale()).as("A's push is fresher than the visit to A").containsExactly(B);
        client.loseHistory();
        assertThat(client.history()).isEqualTo(ClientHistory.unknown());
        // A session started without an upload also pulls from everyone.
        w.b.startSession();
        assertThat(w.b.stale()).containsExactly(A, X);
    }

    @Test
    void thePrintedBoundarySeamTrustsASyncSentInTheTickOfTheVisit() {
        GatherConfig strict = cfg(B, Strategy.S6);
        GatherConfig printed = strict.withPrintedBoundary();
        ClientHistory h = ClientHistory.never().ended(A, clock.now() - strict.historyMargin());
        for (GatherConfig c : List.of(strict, printed)) {
            S6Server b = S6Server.fresh(c, clock);
            b.recvSync(new EoMessage.DSync(A, B, C, clock.now(), new TreeSet<>(), new TreeSet<>()));
            b.startSession(new EoMessage.HistoryUpload(C, B, h));
            assertThat(b.stale()).as(c.printedBoundary() ? "printed <" : "strict <=")
                    .isEqualTo(c.printedBoundary() ? new TreeSet<>() : new TreeSet<>(List.of(A)));
        }
    }

    @Test
    void anIrrelevantPartitionDoesNotBlockDelivery() {
        World w = new World(Strategy.S6);
        ClientHistory visitedAOnly = ClientHistory.never().ended(A, clock.now());
        clock.advance(w.a.config().historyMargin() + 1);
        w.broadcast(w.a);
        ((S6Server) w.b).startSession(new EoMessage.HistoryUpload(C, B, visitedAOnly));
        assertThat(w.b.stale()).isEmpty();
        assertThat(w.b.endGather().outcome()).as("X unreachable, never visited").isEqualTo("delivering");
        // Strategy 5 with X's sync stale blocks on X.
        World w5 = new World(Strategy.S5);
        w5.b.startSession();
        assertThat(w5.b.stale()).contains(X);
        assertThat(w5.b.endGather().outcome()).isEqualTo("refused");
    }

    @Test
    void anUploadedEndTimeFromTheFutureIsRefusedNamingTheEntry() {
        S6Server b = S6Server.fresh(cfg(B, Strategy.S6), clock);
        ClientHistory bad = ClientHistory.never().ended(A, clock.now() + 2 * SKEW + 1);
        GatherDurableState before = b.durable();
        assertThatThrownBy(() -> b.startSession(new EoMessage.HistoryUpload(C, B, bad)))
                .isInstanceOfSatisfying(InvalidMessageException.class,
                        e -> assertThat(e.field()).isEqualTo("history.ended[A]"));
        assertThat(b.durable()).isEqualTo(before);
        assertThat(b.phase()).isEqualTo(GatherServer.Phase.IDLE);
        assertThatThrownBy(() -> b.startSession(new EoMessage.HistoryUpload(C, A, ClientHistory.unknown())))
                .isInstanceOfSatisfying(InvalidMessageException.class, e -> assertThat(e.field()).isEqualTo("to"));
        assertThatThrownBy(() -> new ClientHistory(true, new java.util.TreeMap<>(java.util.Map.of(A, -1L)),
                new TreeSet<>())).isInstanceOfSatisfying(InvalidMessageException.class,
                        e -> assertThat(e.field()).isEqualTo("history.ended[A]"));
    }
}
