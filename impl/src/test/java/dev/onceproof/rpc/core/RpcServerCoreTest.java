package dev.onceproof.rpc.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.InMemoryStableStorage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Figure 3-1 step by step; each test names the rule it shows. */
class RpcServerCoreTest {

    static final long RHO = 100;
    static final long KAPPA = 300;
    static final long BETA = 1_000;
    static final ConnId C1 = ConnId.of("c1");

    final ManualInstantSource clock = new ManualInstantSource(1_000);
    final InMemoryStableStorage storage = new InMemoryStableStorage();
    final RpcServerCore server = new RpcServerCore(
            ScmpConfig.singleClass(RecoveryScheme.RESILIENT, BETA, 10, RHO), clock, storage, KAPPA);

    static RpcMessage.Call call(long ts, String args) {
        return new RpcMessage.Call(C1, Timestamp.of(ts), Payload.ofUtf8(args));
    }

    @Test
    void newCallStartsComputing() {
        ServerStep s = server.receive(call(1_000, "a"));
        assertThat(s.outcome()).isEqualTo(ServerOutcome.EXECUTE);
        assertThat(s.effects()).containsExactly(
                new ServerEffect.Execute(C1, Timestamp.of(1_000), Payload.ofUtf8("a")));
        assertThat(server.state().rpc().get("c1").state()).isEqualTo(EntryState.COMPUTING);
        assertThat(server.state().scmp().ct()).containsEntry("c1", 1_000L);
    }

    @Test
    void duplicateWhileComputingGetsAck() {
        server.receive(call(1_000, "a"));
        ServerStep s = server.receive(call(1_000, "a"));
        assertThat(s.outcome()).isEqualTo(ServerOutcome.ACK);
        assertThat(s.effects()).containsExactly(new ServerEffect.Send(new RpcMessage.Ack(C1, Timestamp.of(1_000))));
        ServerStep t = server.receive(new RpcMessage.TruncatedCall(C1, Timestamp.of(1_000)));
        assertThat(t.outcome()).isEqualTo(ServerOutcome.ACK);
    }

    @Test
    void duplicateWhileReplyingGetsTheStoredReplyAndIsNotReExecuted() {
        server.receive(call(1_000, "a"));
        clock.advance(5);
        ServerStep done = server.complete(C1, Timestamp.of(1_000), Payload.ofUtf8("r"));
        RpcMessage.Reply reply = new RpcMessage.Reply(C1, Timestamp.of(1_000), Payload.ofUtf8("r"));
        assertThat(done.effects()).containsExactly(new ServerEffect.Send(reply));
        assertThat(server.state().rpc().get("c1").replyTime()).isEqualTo(1_005);
        for (RpcMessage dup : List.of(call(1_000, "a"), new RpcMessage.TruncatedCall(C1, Timestamp.of(1_000)))) {
            ServerStep s = server.receive(dup);
            assertThat(s.outcome()).isEqualTo(ServerOutcome.RETRANSMIT_REPLY);
            assertThat(s.effects()).containsExactly(new ServerEffect.Send(reply));
        }
    }

    @Test
    void newCallDiscardsTheStoredReply() {
        server.receive(call(1_000, "a"));
        server.complete(C1, Timestamp.of(1_000), Payload.ofUtf8("r"));
        ServerStep s = server.receive(call(1_001, "b"));
        assertThat(s.outcome()).isEqualTo(ServerOutcome.EXECUTE);
        assertThat(server.state().rpc().get("c1")).isEqualTo(ServerEntry.computing(Timestamp.of(1_001)));
        // A late copy of the earlier call is ruled out and told so.
        assertThat(server.receive(call(1_000, "a")).outcome()).isEqualTo(ServerOutcome.REJECT);
    }

    @Test
    void replyAckOfTheStoredReplyMakesIdleAndAStaleOneIsIgnored() {
        server.receive(call(1_000, "a"));
        assertThat(server.receive(new RpcMessage.ReplyAck(C1, Timestamp.of(1_000))).outcome())
                .isEqualTo(ServerOutcome.IGNORE);
        assertThat(server.state().rpc().get("c1").state()).isEqualTo(EntryState.COMPUTING);
        server.complete(C1, Timestamp.of(1_000), Payload.ofUtf8("r"));
        assertThat(server.receive(new RpcMessage.ReplyAck(C1, Timestamp.of(999))).outcome())
                .isEqualTo(ServerOutcome.IGNORE);
        assertThat(server.receive(new RpcMessage.ReplyAck(C1, Timestamp.of(1_000))).outcome())
                .isEqualTo(ServerOutcome.IDLE);
        ServerEntry e = server.state().rpc().get("c1");
        assertThat(e.state()).isEqualTo(EntryState.IDLE);
        assertThat(e.reply()).isEmpty();
        assertThat(server.receive(call(1_000, "a")).outcome()).isEqualTo(ServerOutcome.IGNORE);
    }

    @Test
    void garbageCollectionNeverDropsComputingEntries() {
        server.receive(call(1_000, "a"));
        clock.advance(10 * KAPPA);
        assertThat(server.collectGarbage()).isZero();
        assertThat(server.receive(call(1_000, "a")).outcome()).isEqualTo(ServerOutcome.ACK);
    }

    @Test
    void garbageCollectionWaitsForRhoPrimeAfterTheReply() {
        server.receive(call(1_000, "a"));
        clock.set(1_050);
        server.complete(C1, Timestamp.of(1_000), Payload.ofUtf8("r"));
        clock.set(1_050 + KAPPA); // reply_time = clock - rho' exactly: not yet older
        assertThat(server.collectGarbage(C1)).isFalse();
        clock.advance(1);
        assertThat(server.collectGarbage(C1)).isTrue();
        assertThat(server.state().rpc()).isEmpty();
        assertThat(server.state().scmp().upper()).containsEntry(ScmpConfig.DEFAULT_CLASS, 1_000L);
        assertThat(server.receive(call(1_000, "a")).outcome()).isEqualTo(ServerOutcome.REJECT);
    }

    @Test
    void garbageCollectionRaisesUpperFromTheCallTimestampNotTheReplyTime() {
        // The client's clock runs 200 ms ahead: its call ts is above the server's reply time.
        server.receive(call(1_200, "a"));
        server.complete(C1, Timestamp.of(1_200), Payload.ofUtf8("r"));
        clock.set(1_000 + RHO + KAPPA + 200);
        assertThat(server.collectGarbage(C1)).isTrue();
        assertThat(server.state().scmp().upper()).containsEntry(ScmpConfig.DEFAULT_CLASS, 1_200L);
        assertThat(server.receive(call(1_200, "a")).outcome()).isEqualTo(ServerOutcome.REJECT);
    }

    @Test
    void duplicateAfterCrashIsRejectedNotReExecuted() {
        server.receive(call(1_000, "a"));
        server.crash();
        assertThat(server.complete(C1, Timestamp.of(1_000), Payload.ofUtf8("r")).outcome())
                .isEqualTo(ServerOutcome.IGNORE);
        assertThatThrownBy(() -> server.receive(call(1_000, "a"))).isInstanceOf(IllegalStateException.class);
        server.recover();
        assertThat(server.state().rpc()).isEmpty();
        assertThat(server.receive(call(1_000, "a")).outcome()).isEqualTo(ServerOutcome.REJECT);
        assertThat(server.receive(new RpcMessage.TruncatedCall(C1, Timestamp.of(1_000))).outcome())
                .isEqualTo(ServerOutcome.REJECT);
    }

    @Test
    void restartedProcessRejectsPreCrashCalls() {
        server.receive(call(1_000, "a"));
        RpcServerCore again = RpcServerCore.restart(
                ScmpConfig.singleClass(RecoveryScheme.RESILIENT, BETA, 10, RHO), clock, storage, KAPPA);
        assertThat(again.receive(call(1_000, "a")).outcome()).isEqualTo(ServerOutcome.REJECT);
    }

    @Test
    void truncatedCallNeverStartsACall() {
        RpcServerState before = server.state();
        ServerStep s = server.receive(new RpcMessage.TruncatedCall(C1, Timestamp.of(1_500)));
        assertThat(s.outcome()).isEqualTo(ServerOutcome.IGNORE);
        assertThat(server.state()).isEqualTo(before);
    }

    @Test
    void tooEarlyCallIsNotJudged() {
        RpcServerState before = server.state();
        assertThat(server.receive(call(1_000 + BETA + 1, "a")).outcome()).isEqualTo(ServerOutcome.TOO_EARLY);
        assertThat(server.state()).isEqualTo(before);
    }

    @Test
    void clientBoundMessagesAreIgnored() {
        RpcServerState before = server.state();
        for (RpcMessage m : List.of(new RpcMessage.Ack(C1, Timestamp.of(1)),
                new RpcMessage.Reply(C1, Timestamp.of(1), Payload.EMPTY), new RpcMessage.Reject(C1, Timestamp.of(1)))) {
            assertThat(server.receive(m)).isEqualTo(new ServerStep(ServerOutcome.IGNORE, List.of()));
        }
        assertThat(server.state()).isEqualTo(before);
    }
}
