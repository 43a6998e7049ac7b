package dev.onceproof.rpc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.rpc.core.CallOutcome;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.storage.InMemoryStableStorage;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runtime's edges: a full work queue and garbage on the wire. */
@Timeout(60)
class RpcUdpServerLoadTest {

    private static final ScmpConfig CONFIG = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 5_000, 0, 60_000);

    @Test
    void aBusyServerLetsRetransmissionsWaitAndEveryCallStillRunsOnce() throws Exception {
        Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
        CallHandler slow = (conn, ts, args) -> {
            executions.computeIfAbsent(conn + "/" + ts, k -> new AtomicInteger()).incrementAndGet();
            Thread.sleep(20);
            return args;
        };
        ServerOptions options = new ServerOptions(new InetSocketAddress("127.0.0.1", 0), 1, 1_000, 1_000);
        List<CallResult> results = new CopyOnWriteArrayList<>();
        try (RpcUdpServer server = RpcUdpServer.start(options, CONFIG, 60_000, new InMemoryStableStorage(),
                InstantSource.system(), slow)) {
            List<Thread> clients = new ArrayList<>();
            for (int k = 0; k < 6; k++) {
                ConnId conn = ConnId.of("load-" + k);
                Thread t = new Thread(() -> {
                    try (RpcUdpClient c = new RpcUdpClient(server.address(), conn, new RetryPolicy(30, 100))) {
                        for (int i = 0; i < 3; i++) {
                            results.add(c.call(new byte[] {(byte) i}));
                        }
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
                clients.add(t);
                t.start();
            }
            for (Thread t : clients) {
                t.join();
            }
            // One thread, six clients retransmitting every 30 ms at a 20 ms handler: copies of
            // CALLs waited in the socket buffer and were judged as duplicates once the thread was free...
            assertThat(server.counters().acks() + server.counters().retransmittedReplies()).isPositive();
            // ...and every call was replied and ran exactly once.
            assertThat(results).hasSize(18).allMatch(r -> r.outcome() == CallOutcome.REPLIED);
            assertThat(executions).hasSize(18);
            assertThat(executions.values()).allMatch(n -> n.get() == 1);
        }
    }

    @Test
    void aCoreFailureOnOneCallLeavesTheServerAnsweringOthers() throws Exception {
        // A classifier that names no rho class for "evil" breaks the core's contract on that call.
        ScmpConfig broken = new ScmpConfig(RecoveryScheme.RESILIENT, 5_000, 0,
                Map.of(ScmpConfig.DEFAULT_CLASS, new dev.onceproof.scmp.FixedRho(60_000)),
                conn -> conn.value().equals("evil") ? "no-such-class" : ScmpConfig.DEFAULT_CLASS);
        try (RpcUdpServer server = RpcUdpServer.start(ServerOptions.loopback(1), broken, 60_000,
                new InMemoryStableStorage(), InstantSource.system(), Handlers.echo());
             RpcUdpClient evil = new RpcUdpClient(server.address(), ConnId.of("evil"), new RetryPolicy(20, 2));
             RpcUdpClient good = new RpcUdpClient(server.address(), ConnId.of("good"), new RetryPolicy(100, 10))) {
            assertThat(evil.call(new byte[] {1}).outcome()).isEqualTo(CallOutcome.OUTCOME_UNKNOWN);
            assertThat(good.call(new byte[] {2}).replyOrThrow()).containsExactly(2);
            assertThat(server.counters().internalErrors()).isEqualTo(2); // both transmissions
        }
    }

    @Test
    void malformedDatagramsAreCountedAndChangeNothing() throws Exception {
        try (RpcUdpServer server = RpcUdpServer.start(ServerOptions.loopback(1), CONFIG, 60_000,
                new InMemoryStableStorage(), InstantSource.system(), Handlers.echo());
             DatagramChannel raw = DatagramChannel.open();
             RpcUdpClient client = new RpcUdpClient(server.address(), ConnId.of("good"), new RetryPolicy(100, 10))) {
            raw.connect(server.address());
            byte[][] garbage = {{0x00}, {0x4F}, {0x4F, 0x50, 9, 1, 1, 'c'}, "GET / HTTP/1.0\r\n\r\n".getBytes()};
            for (byte[] g : garbage) {
                raw.write(ByteBuffer.wrap(g));
            }
            assertThat(client.call(new byte[] {7}).replyOrThrow()).containsExactly(7);
            assertThat(server.counters().malformed()).isEqualTo(garbage.length);
            assertThat(server.state().rpc()).containsOnlyKeys("good");
        }
    }
}
