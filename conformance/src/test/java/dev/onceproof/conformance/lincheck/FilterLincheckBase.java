package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;

/**
 * What the SCMP filter's Lincheck tests share, for the real filter and the racy negative controls
 * alike: the world of {@link LincheckScenario}, the operations (the spec's Receive(m) and
 * CollectGarbage(c) and a Tick of the server clock) and the check that no explored interleaving
 * accepts a message twice. Subclasses build the filter from {@link #clock}.
 */
@Param(name = "conn", gen = IntGen.class, conf = "1:2")
@Param(name = "ts", gen = IntGen.class, conf = "1:4")
public abstract class FilterLincheckBase {

    final ManualInstantSource clock = new ManualInstantSource(LincheckScenario.START_CLOCK);
    private final AcceptanceLog log = new AcceptanceLog();

    /** The filter's receive. */
    abstract Verdict judge(ConnId conn, Timestamp ts);

    /** The filter's single-entry garbage collection. */
    abstract boolean collect(ConnId conn);

    @Operation
    public Verdict receive(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return log.record(conn, ts, judge(LincheckScenario.conn(conn), Timestamp.of(ts)));
    }

    @Operation
    public boolean collectGarbage(@Param(name = "conn") int conn) {
        return collect(LincheckScenario.conn(conn));
    }

    @Operation
    public void tick() {
        clock.advance(1);
    }

    @Validate
    public void noMessageAcceptedTwice() {
        log.validate();
    }
}
