package dev.onceproof.rpc.hybrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.Timestamp;
import org.junit.jupiter.api.Test;

/** Scenarios of 3.2 (end) on the hybrid cores, named after what they show; Hybrid.tla has the proofs. */
class HybridCoresTest {

    private final ManualInstantSource clock = new ManualInstantSource(0);
    private final HybridServerCore server = new HybridServerCore(clock, 1, 1);
    private final HybridClientCore client = new HybridClientCore(ConnId.of("c1"), clock, -1);

    @Test
    void lateCopyAfterCollectionIsRejectedByUpper() {
        // "No duplicates will be accepted with this method": what Birrell and Nelson accept (rule 3).
        client.bind(server.incarnation());
        HybridMessage.Call first = client.call();
        clock.set(1);
        HybridMessage.Call retry = client.retransmit().orElseThrow();
        assertThat(retry.ts().value()).isGreaterThan(first.ts().value());
        HybridMessage.Reply reply = server.receiveCall(first).send().orElseThrow();
        HybridMessage.Ack ack = client.receiveReply(reply).orElseThrow();
        assertThat(ack.ts().value()).isGreaterThan(retry.ts().value()); // the proviso
        assertThat(server.receiveAck(ack)).isTrue();
        assertThat(server.collectGarbage(ConnId.of("c1"))).isFalse(); // not rho after the ack yet
        clock.set(3);
        assertThat(server.collectGarbage()).isEqualTo(1);
        assertThat(server.state().upper()).isEqualTo(ack.ts().value());
        assertThat(server.receiveCall(retry).outcome()).isEqualTo(CallOutcome.BELOW_UPPER);
        assertThat(server.receiveCall(first).outcome()).isEqualTo(CallOutcome.BELOW_UPPER);
    }

    @Test
    void oldIncarnationIsRejectedUntilTheClientBindsAgain() {
        client.bind(server.incarnation());
        server.crash();
        assertThat(server.recover()).isEqualTo(2);
        HybridMessage.Call stale = client.call();
        assertThat(server.receiveCall(stale).outcome()).isEqualTo(CallOutcome.STALE_INCARNATION);
        client.timeout();
        client.bind(server.incarnation());
        assertThat(server.receiveCall(client.call()).outcome()).isEqualTo(CallOutcome.EXECUTE);
    }

    @Test
    void retransmissionBeforeTheAckGetsTheReplyAgain() {
        client.bind(1);
        HybridMessage.Call call = client.call();
        server.receiveCall(call);
        clock.set(1);
        ServerStep again = server.receiveCall(client.retransmit().orElseThrow());
        assertThat(again.outcome()).isEqualTo(CallOutcome.RETRANSMIT_REPLY);
        assertThat(again.send()).isPresent();
        assertThat(server.state().table()).hasSize(1);
    }

    @Test
    void badInputIsRefusedWithoutStateChange() {
        HybridServerState before = server.state();
        assertThatThrownBy(() -> new HybridMessage.Call(ConnId.of("c1"), 0, 1, Timestamp.of(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sequence number 0 of c1");
        assertThatThrownBy(() -> new HybridMessage.Ack(ConnId.of("c1"), 1, 0, Timestamp.of(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("incarnation 0 of c1");
        assertThatThrownBy(client::call).isInstanceOf(IllegalStateException.class).hasMessageContaining("before binding");
        assertThatThrownBy(() -> new HybridServerCore(clock, 0, 1)).hasMessageContaining("rho 0");
        server.crash();
        assertThatThrownBy(() -> server.receiveCall(new HybridMessage.Call(ConnId.of("c1"), 1, 1, Timestamp.of(0))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("crashed server");
        assertThat(server.state().table()).isEqualTo(before.table());
        assertThat(client.state().seq()).isZero();
    }

    @Test
    void ackOfAnotherCallOrIncarnationIsIgnored() {
        client.bind(1);
        server.receiveCall(client.call());
        assertThat(server.receiveAck(new HybridMessage.Ack(ConnId.of("c1"), 2, 1, Timestamp.of(5)))).isFalse();
        assertThat(server.receiveAck(new HybridMessage.Ack(ConnId.of("c1"), 1, 2, Timestamp.of(5)))).isFalse();
        assertThat(server.state().table().get("c1").replying()).isTrue();
    }
}
