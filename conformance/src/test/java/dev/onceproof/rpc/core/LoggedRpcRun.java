package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConcurrentScmpFilter;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.InMemoryStableStorage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A scripted run of the real {@link ConcurrentRpcServer} (or one built with a mutation seam) on a
 * manual clock, with the server's step log and the script's client steps in a second log: a call,
 * its reply and REPLY-ACK, then garbage collection of the entry once rho' has passed, then a late
 * copy of the CALL (which the raised upper must make a duplicate). For the seam control of trace
 * validation: the broken server must be rejected at the step where it goes wrong.
 */
public final class LoggedRpcRun {

    static final long BETA = 50;
    static final long RHO = 10;
    static final long KAPPA = 5;

    private LoggedRpcRun() {
    }

    public static List<Path> run(Path dir, String reordering) {
        ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, BETA, 0, RHO);
        ManualInstantSource clock = new ManualInstantSource(0);
        Path serverLog = dir.resolve("server.jsonl");
        Path clientLog = dir.resolve("client.jsonl");
        ConnId c = ConnId.of("c1");
        try (StepLog log = StepLog.open(serverLog, new StepLog.Header("RPC", "resilient", "server")
                .strings("Classes", List.of(ScmpConfig.DEFAULT_CLASS)).map("Rho", Map.of(ScmpConfig.DEFAULT_CLASS, RHO))
                .constant("Kappa", KAPPA).constant("Beta", BETA).constant("Epsilon", 0));
             StepLog client = StepLog.open(clientLog, new StepLog.Header("RPC", "resilient", "client-c1")
                     .constant("MaxTries", 1))) {
            ConcurrentRpcServer server = new ConcurrentRpcServer(
                    ConcurrentScmpFilter.embedded(config, clock, new InMemoryStableStorage(), false, log), clock, KAPPA,
                    ConcurrentRpcServer.Reordering.valueOf(reordering), log);
            clock.advance(1);
            Timestamp ts = Timestamp.of(1);
            client.step("Call").field("conn", "c1").field("ts", 1).field("now", 1).end();
            server.receiveCall(new RpcMessage.Call(c, ts, Payload.of(new byte[] {7})));
            server.complete(c, ts, Payload.of(new byte[] {7}));
            client.step("ReceiveReply").field("conn", "c1").field("ts", 1).field("accepted", true).end();
            server.receiveReplyAck(new RpcMessage.ReplyAck(c, ts));
            clock.advance(RHO + 5);
            server.collectGarbage(c);
            // A late copy of the CALL: upper must cover it now that the entry is gone.
            server.receiveCall(new RpcMessage.Call(c, ts, Payload.of(new byte[] {7})));
        }
        return List.of(serverLog, clientLog);
    }
}
