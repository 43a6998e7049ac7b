package dev.onceproof.rpc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.rpc.core.CallOutcome;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.wire.DatagramAuth;
import dev.onceproof.rpc.wire.Keyring;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcEncoder;
import dev.onceproof.rpc.wire.RpcKey;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.InMemoryStableStorage;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Authenticated datagrams on real UDP (issue 13 item 3): with keys, a forged CALL for a victim's
 * connection, even one with a timestamp just below latest, is counted and dropped before any
 * protocol state changes, so it neither executes nor makes the victim's later calls duplicates;
 * without keys the same datagram does both (the attack the keys stop).
 */
@Timeout(60)
class RpcUdpAuthTest {

    static final ConnId VICTIM = ConnId.of("victim");
    static final byte[] KEY = HexFormat.of().parseHex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
    static final byte[] FORGER_KEY = HexFormat.of().parseHex("ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100");
    static final ScmpConfig RESILIENT = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 2_000, 0, 5_000);

    RpcUdpServer start(Keyring keys) throws Exception {
        ServerOptions options = ServerOptions.loopback(1).withPeriods(100, 100);
        return RpcUdpServer.start(keys == null ? options : options.withKeys(keys), RESILIENT, 5_000,
                new InMemoryStableStorage(), InstantSource.system(), Handlers.echo());
    }

    /** A CALL for the victim with a timestamp just below latest: executes, and the victim's next call is a duplicate. */
    static void forge(RpcUdpServer server, byte[] datagram) throws Exception {
        try (DatagramSocket s = new DatagramSocket()) {
            s.send(new DatagramPacket(datagram, datagram.length, server.address()));
        }
        Thread.sleep(200);
    }

    static RpcMessage.Call forgedCall(RpcUdpServer server) {
        return new RpcMessage.Call(VICTIM, Timestamp.of(server.state().scmp().latest() - 1), Payload.ofUtf8("forged"));
    }

    @Test
    void withoutKeysAForgedCallExecutesAndTheVictimIsRejected() throws Exception {
        try (RpcUdpServer server = start(null);
             RpcUdpClient victim = new RpcUdpClient(server.address(), VICTIM, new RetryPolicy(50, 5))) {
            forge(server, RpcEncoder.encode(forgedCall(server)));
            assertThat(server.counters().executed()).isEqualTo(1);
            assertThat(victim.call("real".getBytes(StandardCharsets.UTF_8)).outcome())
                    .isEqualTo(CallOutcome.REJECTED_AS_DUPLICATE);
        }
    }

    @Test
    void withKeysForgedCallsAreCountedAndDroppedBeforeAnyStateChange() throws Exception {
        Keyring keys = Keyring.of(Map.of(VICTIM, KEY));
        try (RpcUdpServer server = start(keys);
             RpcUdpClient victim = new RpcUdpClient(server.address(), VICTIM,
                     ClientOptions.of(new RetryPolicy(50, 20)).withKeys(keys), InstantSource.system(), 0)) {
            var before = server.state();
            forge(server, RpcEncoder.encode(forgedCall(server)));                              // version 1
            forge(server, DatagramAuth.seal(forgedCall(server), new RpcKey(1, FORGER_KEY)));   // wrong key
            forge(server, DatagramAuth.seal(forgedCall(server), new RpcKey(2, KEY)));          // unknown key id
            assertThat(server.counters().unauthenticated()).isEqualTo(3);
            assertThat(server.counters().executed()).isZero();
            assertThat(server.state().rpc()).isEqualTo(before.rpc());
            assertThat(server.state().scmp().ct()).isEqualTo(before.scmp().ct());
            var r = victim.call("real".getBytes(StandardCharsets.UTF_8));
            assertThat(r.outcome()).isEqualTo(CallOutcome.REPLIED);
            assertThat(r.replyOrThrow()).isEqualTo("real".getBytes(StandardCharsets.UTF_8));
            assertThat(server.counters().executed()).isEqualTo(1);
        }
    }

    @Test
    void aVersion1ClientGetsNoAnswerFromAServerWithKeys() throws Exception {
        try (RpcUdpServer server = start(Keyring.of(Map.of(VICTIM, KEY)));
             RpcUdpClient plain = new RpcUdpClient(server.address(), VICTIM, new RetryPolicy(20, 3))) {
            assertThat(plain.call(new byte[0]).outcome()).isEqualTo(CallOutcome.OUTCOME_UNKNOWN);
            assertThat(server.counters().unauthenticated()).isGreaterThanOrEqualTo(1);
            assertThat(server.counters().executed()).isZero();
        }
    }
}
