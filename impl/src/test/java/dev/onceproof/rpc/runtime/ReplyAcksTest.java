package dev.onceproof.rpc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.rpc.core.EntryState;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.storage.InMemoryStableStorage;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The REPLY-ACK hint (paper 3.1) as each {@link ReplyAcks} mode sends it, seen in the server's table. */
@Timeout(30)
class ReplyAcksTest {

    private static EntryState stateAfter(ReplyAcks mode, boolean close) throws Exception {
        ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 5_000, 0, 60_000);
        ConnId conn = ConnId.of("acks-" + mode);
        try (RpcUdpServer server = RpcUdpServer.start(ServerOptions.loopback(1), config, 60_000,
                new InMemoryStableStorage(), InstantSource.system(), Handlers.nullCall())) {
            RpcUdpClient client = new RpcUdpClient(server.address(), conn,
                    ClientOptions.of(new RetryPolicy(100, 10)).withReplyAcks(mode), InstantSource.system(), 0);
            client.call(new byte[0]);
            client.call(new byte[0]);
            if (close) {
                client.close();
            }
            // The server handles datagrams in order on one thread: one more call from another
            // connection is answered only after any REPLY-ACK sent before it was processed.
            try (RpcUdpClient probe = new RpcUdpClient(server.address(), ConnId.of("probe"), new RetryPolicy(100, 10))) {
                probe.call(new byte[0]);
            }
            EntryState state = server.state().rpc().get(conn.value()).state();
            client.close();
            return state;
        }
    }

    @Test
    void immediateAckLetsTheServerDropTheReplyAtOnce() throws Exception {
        assertThat(stateAfter(ReplyAcks.IMMEDIATE, false)).isEqualTo(EntryState.IDLE);
    }

    @Test
    void deferredAckWaitsWhileTheConnectionIsInUseAndIsSentOnClose() throws Exception {
        assertThat(stateAfter(ReplyAcks.DEFERRED, false)).isEqualTo(EntryState.REPLYING);
        assertThat(stateAfter(ReplyAcks.DEFERRED, true)).isEqualTo(EntryState.IDLE);
    }

    @Test
    void noAckLeavesTheReplyToGarbageCollection() throws Exception {
        assertThat(stateAfter(ReplyAcks.OFF, true)).isEqualTo(EntryState.REPLYING);
    }
}
