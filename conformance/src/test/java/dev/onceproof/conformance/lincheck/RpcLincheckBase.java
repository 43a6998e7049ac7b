package dev.onceproof.conformance.lincheck;

import dev.onceproof.rpc.core.ServerOutcome;
import dev.onceproof.scmp.ManualInstantSource;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;

/**
 * What the RPC server's Lincheck tests share: the world of {@link RpcLincheckScenario}, the Tick
 * operation and the at-most-once check (no (conn, ts) EXECUTEd twice) on every explored
 * interleaving. Subclasses build the server from {@link #clock} and declare its operations.
 */
@Param(name = "conn", gen = IntGen.class, conf = "1:2")
@Param(name = "ts", gen = IntGen.class, conf = "1:3")
public abstract class RpcLincheckBase {

    final ManualInstantSource clock = new ManualInstantSource(RpcLincheckScenario.START_CLOCK);
    private final AcceptanceLog log = new AcceptanceLog();

    /** Every receiveCall goes through here, so the validation sees each EXECUTE. */
    ServerOutcome executed(int conn, int ts, ServerOutcome outcome) {
        return log.record(conn, ts, outcome);
    }

    @Operation
    public void tick() {
        clock.advance(1);
    }

    @Validate
    public void noCallExecutedTwice() {
        log.validate();
    }
}
