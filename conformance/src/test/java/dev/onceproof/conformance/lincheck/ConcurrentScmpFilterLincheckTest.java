package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ConcurrentScmpFilter;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.InMemoryStableStorage;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Test;

/**
 * Link 3 of the chain of trust (DESIGN.md): {@link ConcurrentScmpFilter} is linearizable with
 * respect to the sequential core, and no interleaving accepts one message twice. Operations are
 * the spec's Receive(m) and CollectGarbage(c) and a Tick of the server clock; the full collection
 * pass is a sequence of CollectGarbage(c) steps, each atomic, and is not itself one atomic step.
 */
@Param(name = "conn", gen = IntGen.class, conf = "1:2")
@Param(name = "ts", gen = IntGen.class, conf = "1:4")
public class ConcurrentScmpFilterLincheckTest {

    private final ManualInstantSource clock = new ManualInstantSource(LincheckScenario.START_CLOCK);
    private final ConcurrentScmpFilter filter =
            new ConcurrentScmpFilter(LincheckScenario.CONFIG, clock, new InMemoryStableStorage());
    private final AcceptanceLog log = new AcceptanceLog();

    @Operation
    public Verdict receive(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return log.record(conn, ts, filter.receive(LincheckScenario.conn(conn), Timestamp.of(ts)));
    }

    @Operation
    public boolean collectGarbage(@Param(name = "conn") int conn) {
        return filter.collectGarbage(LincheckScenario.conn(conn));
    }

    @Operation
    public void tick() {
        clock.advance(1);
    }

    @Validate
    public void noMessageAcceptedTwice() {
        log.validate();
    }

    @Test
    void linearizableAndNeverAcceptsTwice() {
        LinChecker.check(ConcurrentScmpFilterLincheckTest.class, LincheckOptions.modelChecking());
    }
}
