package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The one way to build a strategy's cores ({@link StrategyConfig}) and the one step interface
 * ({@link EoServer}): every strategy builds its own classes, a step it lacks or a wrong input is
 * refused with an error that names the strategy and the step, and the interface's steps do what
 * the spec-named steps do.
 */
class StrategyTest {

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");
    final ManualEoClock clock = new ManualEoClock(0);

    static StrategyConfig config(Strategy s) {
        return s.config(C, new TreeSet<>(List.of(A, B)), 1).w(4).q(2).times(s == Strategy.S5 ? 6 : 0,
                s == Strategy.S5 ? 1 : 0, 0);
    }

    @Test
    void everyStrategyBuildsItsOwnCores() {
        List<Class<?>> servers = List.of(S0Server.class, S1Server.class, S2Server.class, S3Server.class,
                S4Server.class, S5Server.class, S6Server.class);
        List<Class<?>> clients = List.of(S0Client.class, S1Client.class, S2Client.class, S3Client.class,
                S4Client.class, S5Client.class, S6Client.class);
        for (Strategy s : Strategy.values()) {
            EoServer server = config(s).server(A, clock, s.initialState());
            assertThat(server).as(s.name()).isExactlyInstanceOf(servers.get(s.number()));
            assertThat(server.strategy()).isEqualTo(s);
            assertThat(config(s).client(clock, StrategyConfig.ClientMemory.fresh()))
                    .isExactlyInstanceOf(clients.get(s.number()));
        }
    }

    @Test
    void anotherFamilysStateIsRefusedNamingBoth() {
        assertThatThrownBy(() -> config(Strategy.S1).server(A, clock, GatherDurableState.initial()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("S1").hasMessageContaining("ServerDurableState")
                .hasMessageContaining("GatherDurableState");
        assertThatThrownBy(() -> config(Strategy.S3).client(clock, StrategyConfig.ClientMemory.fresh()
                .withStable(new ClientStableState.Streams(new java.util.TreeMap<>()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("S3").hasMessageContaining("IdList").hasMessageContaining("Streams");
        assertThatThrownBy(() -> Strategy.of(7)).hasMessageContaining("strategy 7");
    }

    @Test
    void aStepTheStrategyLacksIsRefusedNamingStrategyAndStep() {
        EoServer s1 = config(Strategy.S1).server(A, clock, Strategy.S1.initialState());
        assertThatThrownBy(() -> s1.aDeliverOk(1, NoteId.global("x")))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("S1").hasMessageContaining("aDeliverOk");
        assertThatThrownBy(s1::authorize).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("S1").hasMessageContaining("authorize");
        EoServer s4 = config(Strategy.S4).server(A, clock, Strategy.S4.initialState());
        assertThatThrownBy(() -> s4.receive(new EoMessage.NoteAck(C, A, NoteId.global("x"))))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("S4").hasMessageContaining("NoteAck");
        EoServer s3 = config(Strategy.S3).server(A, clock, Strategy.S3.initialState());
        assertThatThrownBy(() -> s3.receive(new EoMessage.DSync(B, A, C, 0, new TreeSet<>(), new TreeSet<>(), 0)))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("S3").hasMessageContaining("DSync");
    }

    @Test
    void aNoteIsNamedWhereTheStrategyNeedsItAndNumberedWhereItNumbers() {
        EoServer s1 = config(Strategy.S1).server(A, clock, Strategy.S1.initialState());
        assertThatThrownBy(() -> s1.createNote(Optional.of(NoteId.global("x")), "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("numbers its notes");
        assertThat(s1.createNote(Optional.empty(), "x").outcome()).isEqualTo("created A.1");
        for (Strategy s : List.of(Strategy.S0, Strategy.S3, Strategy.S4, Strategy.S5, Strategy.S6)) {
            EoServer core = config(s).server(A, clock, s.initialState());
            assertThatThrownBy(() -> core.createNote(Optional.empty(), "x")).as(s.name())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(s.name());
            assertThat(core.createNote(Optional.of(NoteId.global("x")), "x").outcome()).isEqualTo("created");
        }
    }

    /** The interface's steps route to the spec-named ones: a Strategy 3 round trip through receive. */
    @Test
    void theStepInterfaceDrivesAStrategy3Delivery() {
        StrategyConfig cfg = config(Strategy.S3);
        EoServer a = cfg.server(A, clock, Strategy.S3.initialState());
        EoServer b = cfg.server(B, clock, Strategy.S3.initialState());
        ServerStep created = a.createNote(Optional.of(NoteId.global("n")), "n");
        // The replication round to its end: B stores and acks, A commits, B takes the commit.
        assertThat(Replication.atOnce(created, s -> s.equals(A) ? a : b)).extracting(h -> h.step().outcome())
                .containsExactly("stored", "committed", "committed");
        a.startSession();
        ServerStep sent = a.deliverNext();
        assertThat(sent.outcome()).isEqualTo("sent");
        ClientCore client = cfg.client(clock, StrategyConfig.ClientMemory.fresh());
        client.connect(A);
        assertThat(a.receive(CoresTest.ack(client.receiveNote(CoresTest.sent(sent)))).outcome()).isEqualTo("delivered");
        ServerStep sync = a.sync();
        ServerStep replied = b.receive(CoresTest.send(sync, EoMessage.SyncRequest.class));
        assertThat(a.receive(CoresTest.send(replied, EoMessage.SyncReply.class)).outcome()).isEqualTo("syncMerged");
        assertThat(((ServerDurableState) b.durable()).d()).containsExactly(NoteId.global("n"));
    }

    /** Strategy 3's wrapper through the step interface: the chosen note reaches the session's channel. */
    @Test
    void theStrategy3WrapperHandsTheNoteToTheSessionsChannel() {
        StrategyConfig cfg = config(Strategy.S3);
        EoServer a = cfg.server(A, clock, Strategy.S3.initialState());
        List<EoMessage> channel = new java.util.ArrayList<>();
        EoServer b = new ConcurrentS3Server((S3Server) cfg.server(B, clock, Strategy.S3.initialState()),
                dev.onceproof.exactlyonce.store.ServerStore.inMemory(new dev.onceproof.storage.InMemoryOperationLog.Disk("B")),
                ConcurrentS3Server.Handoff.UNDER_LOCK, channel::add);
        Replication.atOnce(a.createNote(Optional.of(NoteId.global("n")), "n"), s -> s.equals(A) ? a : b);
        b.startSession();
        assertThat(b.deliverNext().outcome()).isEqualTo("sent");
        assertThat(channel).singleElement().isInstanceOf(EoMessage.NoteDelivery.class);
        assertThat(b.pending()).contains(NoteId.global("n"));
        EoServer noChannel = new ConcurrentS3Server((S3Server) cfg.server(B, clock, Strategy.S3.initialState()),
                dev.onceproof.exactlyonce.store.ServerStore.inMemory(new dev.onceproof.storage.InMemoryOperationLog.Disk("B")));
        assertThatThrownBy(noChannel::deliverNext).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("channel");
    }
}
