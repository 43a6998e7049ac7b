package dev.onceproof.bench.rpc;

import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.runtime.CallResult;
import dev.onceproof.rpc.runtime.ClientOptions;
import dev.onceproof.rpc.wire.Keyring;
import dev.onceproof.rpc.runtime.Handlers;
import dev.onceproof.rpc.runtime.ReplyAcks;
import dev.onceproof.rpc.runtime.RpcUdpClient;
import dev.onceproof.rpc.runtime.RpcUdpServer;
import dev.onceproof.rpc.runtime.ServerOptions;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.storage.FileStableStorage;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The at-most-once RPC of paper 3.1 on our UDP runtime: a resilient server (latest written to a
 * real file with fsync in the background, Fig. 2-2) with the paper's parameters, rho = kappa = 5
 * minutes and beta a few seconds. Every client has its own socket and a fresh connection id.
 */
public final class ScmpRpcSystem implements RpcSystem {

    private static final long RHO = 300_000;
    private static final long KAPPA = 300_000;
    /**
     * "Writing to disk every few seconds" (2.4). Also covers a connection making more than one call
     * per millisecond, whose timestamps run ahead of the clock by one per call (2.2's counter).
     */
    private static final long BETA = 5_000;
    private static final long GC_PERIOD = 60_000;

    private final Path dir;
    private final RpcUdpServer server;
    private final RetryPolicy policy;
    private final int threads;
    private final ReplyAcks replyAcks;
    private final String clientPrefix = "bench-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    private final AtomicLong clients = new AtomicLong();
    /** Null: wire format version 1; else the keys of every connection the run will open (wire v2). */
    private final Keyring keys;

    public ScmpRpcSystem(int threads, RetryPolicy policy, ReplyAcks replyAcks) throws IOException {
        this(threads, policy, replyAcks, 0);
    }

    /**
     * @param authenticatedConnections 0: unauthenticated (wire v1); else authenticated datagrams
     *        (wire v2, HMAC-SHA256) with a random 32-byte key for each of this many connections, the
     *        most the run will open (each client has a fresh connection id)
     */
    public ScmpRpcSystem(int threads, RetryPolicy policy, ReplyAcks replyAcks, int authenticatedConnections)
            throws IOException {
        this.keys = authenticatedConnections == 0 ? null : keyring(authenticatedConnections);
        this.threads = threads;
        this.replyAcks = replyAcks;
        this.policy = policy;
        dir = Files.createTempDirectory("onceproof-bench-");
        ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, BETA, 0, RHO);
        // Garbage collection every minute: with rho' = max(rho, kappa) = 5 minutes a pass could
        // remove nothing sooner, and a pass walks the whole table on the second core, which would
        // only compete with the measured calls ("we do not remove connection table entries unless
        // the table is almost full", 3.1). Latest is written every second, as the paper suggests.
        server = RpcUdpServer.start(ServerOptions.loopback(threads).withPeriods(1_000, GC_PERIOD).withKeys(keys), config, KAPPA,
                new FileStableStorage(dir.resolve("latest")), InstantSource.system(), Handlers.nullCall());
    }

    private Keyring keyring(int connections) {
        SecureRandom random = new SecureRandom();
        Map<ConnId, byte[]> map = new HashMap<>();
        for (int i = 1; i <= connections; i++) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            map.put(connection(i), key);
        }
        return Keyring.of(map);
    }

    private ConnId connection(long i) {
        return ConnId.of(clientPrefix + "-" + i);
    }

    @Override
    public String name() {
        return "SCMP-RPC" + (keys == null ? "" : "/auth") + (threads == 1 ? "" : "/" + threads + "t")
                + (replyAcks == ReplyAcks.OFF ? "" : "/" + replyAcks.name().toLowerCase(java.util.Locale.ROOT) + "-ack");
    }

    @Override
    public String description() {
        return "at-most-once RPC (paper Fig. 3-1) over UDP, resilient SCMP server, "
                + (threads == 1 ? "one server thread" : threads + " server threads") + " sharing the concurrent filter"
                + ", REPLY-ACK " + replyAcks.name().toLowerCase(java.util.Locale.ROOT)
                + (keys == null ? "" : ", authenticated datagrams (wire v2, HMAC-SHA256 per connection)");
    }

    @Override
    public Client newClient() throws IOException {
        RpcUdpClient client = new RpcUdpClient(server.address(), connection(clients.incrementAndGet()),
                ClientOptions.of(policy).withReplyAcks(replyAcks).withKeys(keys), InstantSource.system(), 0);
        return new Client() {
            @Override
            public byte[] call(byte[] args) throws IOException {
                CallResult r = client.call(args);
                if (!r.replied()) {
                    throw new SocketTimeoutException("SCMP-RPC call " + client.conn() + "/" + r.ts()
                            + " ended " + r.outcome() + " after " + r.tries() + " tries");
                }
                return r.replyOrThrow();
            }

            @Override
            public void close() throws IOException {
                client.close();
            }
        };
    }

    /** What the server did, for the report (executions, rejects, retransmitted replies). */
    public String serverCounters() {
        return server.counters().toString();
    }

    @Override
    public void close() throws IOException {
        server.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
