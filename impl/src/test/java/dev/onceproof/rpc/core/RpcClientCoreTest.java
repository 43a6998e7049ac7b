package dev.onceproof.rpc.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.Timestamp;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Paper 3.1, client side: retransmission, truncation after an ACK, timeout, own reply only. */
class RpcClientCoreTest {

    static final ConnId C1 = ConnId.of("c1");
    final ManualInstantSource clock = new ManualInstantSource(500);
    final RpcClientCore client = new RpcClientCore(C1, clock, new RetryPolicy(20, 3));
    final Payload args = Payload.ofUtf8("args");

    @Test
    void callSendsAFullCallStampedWithTheClockAndArmsTheTimer() {
        ClientStep s = client.call(args);
        assertThat(s.action()).isEqualTo("Call");
        assertThat(s.effects()).containsExactly(
                new ClientEffect.Send(new RpcMessage.Call(C1, Timestamp.of(500), args)),
                new ClientEffect.SetTimer(520));
        assertThatThrownBy(() -> client.call(args)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void callIdsStrictlyIncreaseWithinOneClockTick() {
        client.call(args);
        client.receive(new RpcMessage.Reject(C1, Timestamp.of(500)));
        client.call(args);
        assertThat(client.outstanding()).contains(Timestamp.of(501));
    }

    @Test
    void retransmissionsAreTruncatedAfterAnAck() {
        client.call(args);
        clock.advance(20);
        assertThat(client.timerExpired().effects().get(0))
                .isEqualTo(new ClientEffect.Send(new RpcMessage.Call(C1, Timestamp.of(500), args)));
        assertThat(client.receive(new RpcMessage.Ack(C1, Timestamp.of(500))).action()).isEqualTo("ReceiveAck");
        clock.advance(20);
        assertThat(client.timerExpired().effects().get(0))
                .isEqualTo(new ClientEffect.Send(new RpcMessage.TruncatedCall(C1, Timestamp.of(500))));
        assertThat(client.state()).isEqualTo(new ClientState(true, 500, true, 3, CallOutcome.NONE));
    }

    @Test
    void timesOutAfterMaxTriesWithOutcomeUnknown() {
        client.call(args);
        assertThat(client.timerExpired().ignored()).isTrue(); // not due yet
        clock.advance(20);
        client.timerExpired();
        clock.advance(20);
        client.timerExpired();
        clock.advance(20);
        ClientStep s = client.timerExpired();
        assertThat(s.action()).isEqualTo("Timeout");
        assertThat(s.effects()).containsExactly(new ClientEffect.CancelTimer(),
                new ClientEffect.Complete(Timestamp.of(500), CallOutcome.OUTCOME_UNKNOWN, Optional.empty()));
        assertThat(client.state().outcome()).isEqualTo(CallOutcome.OUTCOME_UNKNOWN);
        assertThat(client.timerExpired().ignored()).isTrue();
    }

    @Test
    void acceptsOnlyTheReplyForItsOwnOutstandingCall() {
        client.call(args);
        ClientState before = client.state();
        for (RpcMessage other : new RpcMessage[] {
                new RpcMessage.Reply(C1, Timestamp.of(499), Payload.ofUtf8("old")),
                new RpcMessage.Reply(ConnId.of("c2"), Timestamp.of(500), Payload.ofUtf8("theirs")),
                new RpcMessage.Ack(C1, Timestamp.of(499)),
                new RpcMessage.Reject(C1, Timestamp.of(501))}) {
            assertThat(client.receive(other).ignored()).isTrue();
        }
        assertThat(client.state()).isEqualTo(before);
        ClientStep s = client.receive(new RpcMessage.Reply(C1, Timestamp.of(500), Payload.ofUtf8("mine")));
        assertThat(s.effects()).containsExactly(
                new ClientEffect.Send(new RpcMessage.ReplyAck(C1, Timestamp.of(500))),
                new ClientEffect.CancelTimer(),
                new ClientEffect.Complete(Timestamp.of(500), CallOutcome.REPLIED, Optional.of(Payload.ofUtf8("mine"))));
        assertThat(client.receive(new RpcMessage.Reply(C1, Timestamp.of(500), Payload.ofUtf8("mine"))).ignored())
                .isTrue();
    }

    @Test
    void rejectedAsDuplicateOnlyWhenTheServerSaysSo() {
        client.call(args);
        ClientStep s = client.receive(new RpcMessage.Reject(C1, Timestamp.of(500)));
        assertThat(s.action()).isEqualTo("ReceiveReject");
        assertThat(client.state().outcome()).isEqualTo(CallOutcome.REJECTED_AS_DUPLICATE);
    }
}
