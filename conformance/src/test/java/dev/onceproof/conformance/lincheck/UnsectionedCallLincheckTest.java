package dev.onceproof.conformance.lincheck;

import dev.onceproof.rpc.core.RacyRpcServer;
import dev.onceproof.rpc.core.ServerOutcome;
import dev.onceproof.storage.InMemoryStableStorage;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.junit.jupiter.api.Test;

/**
 * The negative control for {@link ConcurrentRpcServerLincheckTest}: a server whose CALL handling
 * reads the entry, asks SCMP and writes the entry as three separate atomic steps
 * ({@link RacyRpcServer}) must be reported. It cannot execute a call twice (the filter alone
 * prevents that), so Lincheck must find a history no sequential order explains, such as calls 1 and
 * 2 on one connection both executed and then a copy of call 1 answered ACK (call 1's entry overwrote
 * call 2's) where the core answers REJECT. Only receiveCall and tick: the race needs nothing
 * else, and fewer operations make Lincheck meet it within the first scenarios.
 */
public class UnsectionedCallLincheckTest extends RpcLincheckBase {

    private final RacyRpcServer server = new RacyRpcServer(RpcLincheckScenario.CONFIG, clock,
            new InMemoryStableStorage());

    @Operation
    public ServerOutcome receiveCall(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return executed(conn, ts, server.receiveCall(RpcLincheckScenario.call(conn, ts)).outcome());
    }

    @Test
    void callOutsideThePerKeySectionIsCaught() {
        RacyFilterLincheckBase.assertCaught(UnsectionedCallLincheckTest.class, LincheckOptions.rpcModelChecking(), 8);
    }
}
