package dev.onceproof.conformance.validate;

import dev.onceproof.rpc.core.CallOutcome;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.runtime.CallResult;
import dev.onceproof.rpc.runtime.ClientOptions;
import dev.onceproof.rpc.runtime.RpcUdpClient;
import dev.onceproof.rpc.runtime.RpcUdpServer;
import dev.onceproof.rpc.runtime.ServerOptions;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.FileStableStorage;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A short real RPC run with every step log on: the UDP server (two worker threads, latest written
 * and garbage collected in the background, latest on a real file) and two clients on loopback, one
 * making quick calls, one a slow call it retransmits (so the server ACKs, the client truncates its
 * retransmissions and garbage collection runs between calls). Returns the logs: server, clients.
 */
public final class RpcUdpRun {

    static final long BETA = 400;
    static final long EPSILON = 0;
    static final long RHO = 120;
    static final long KAPPA = 80;
    static final RetryPolicy RETRY = new RetryPolicy(15, 20);

    private RpcUdpRun() {
    }

    public static StepLog.Header serverHeader(int incarnation) {
        return new StepLog.Header("RPC", "resilient", "server").strings("Classes", List.of(ScmpConfig.DEFAULT_CLASS))
                .map("Rho", Map.of(ScmpConfig.DEFAULT_CLASS, RHO)).constant("Kappa", KAPPA).constant("Beta", BETA)
                .constant("Epsilon", EPSILON).constant("incarnation", incarnation);
    }

    public static StepLog.Header clientHeader(String conn) {
        return new StepLog.Header("RPC", "resilient", "client-" + conn).constant("MaxTries", RETRY.maxTries());
    }

    public static List<Path> run(Path dir, int quickCalls) throws Exception {
        ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, BETA, EPSILON, RHO);
        Path serverLog = dir.resolve("server.jsonl");
        Path quickLog = dir.resolve("client-q.jsonl");
        Path slowLog = dir.resolve("client-s.jsonl");
        try (StepLog log = StepLog.open(serverLog, serverHeader(0));
             RpcUdpServer server = RpcUdpServer.start(new ServerOptions(
                             new java.net.InetSocketAddress("127.0.0.1", 0), 2, 40, 30),
                     config, KAPPA, new FileStableStorage(dir.resolve("latest")), InstantSource.system(),
                     (conn, ts, args) -> {
                         if (args.length > 0 && args[0] == 1) {
                             Thread.sleep(60); // the slow call: the client retransmits meanwhile
                         }
                         return args;
                     }, log);
             StepLog ql = StepLog.open(quickLog, clientHeader("q"));
             StepLog sl = StepLog.open(slowLog, clientHeader("s"));
             RpcUdpClient quick = new RpcUdpClient(server.address(), ConnId.of("q"), ClientOptions.of(RETRY),
                     InstantSource.system(), 0, ql);
             RpcUdpClient slow = new RpcUdpClient(server.address(), ConnId.of("s"), ClientOptions.of(RETRY),
                     InstantSource.system(), 0, sl)) {
            Thread slowCalls = new Thread(() -> {
                try {
                    for (int i = 0; i < 2; i++) {
                        require(slow.call(new byte[] {1}));
                        Thread.sleep(RHO + 60); // long enough for the reply's entry to be collected
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            slowCalls.start();
            for (int i = 0; i < quickCalls; i++) {
                require(quick.call(new byte[] {0, (byte) i}));
                Thread.sleep(20);
            }
            slowCalls.join();
        }
        return new ArrayList<>(List.of(serverLog, quickLog, slowLog));
    }

    private static void require(CallResult r) {
        if (r.outcome() != CallOutcome.REPLIED) {
            throw new IllegalStateException("call " + r.ts() + " ended " + r.outcome());
        }
    }
}
