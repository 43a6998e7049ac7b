package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ConcurrentScmpFilter;
import dev.onceproof.scmp.FilterSeams;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;

/**
 * The operations Lincheck runs on the real {@link ConcurrentScmpFilter}, in a world of
 * {@link LincheckScenario}: the spec's Receive(m), CollectGarbage(c), the full collection pass, Tick,
 * and Crash followed by Recover (a process restart: {@link ConcurrentScmpFilter#restart}); the
 * scheme's own action (FinishRecovery or WriteLatest) is in the subclass. Checked on every explored
 * interleaving besides linearizability: NoDuplicateAccepted and, resilient, AcceptedBelowStable
 * (SCMP.tla): right after a receive accepts ts, stable storage holds a latest at or above it.
 *
 * @see SequentialScmp the sequential specification, with the same world
 */
@Param(name = "conn", gen = IntGen.class, conf = "1:2")
@Param(name = "ts", gen = IntGen.class, conf = "1:4")
public abstract class FilterLincheckBase {

    private final ScmpConfig config;
    /** Which mutation seam the filter commits; "NONE" for the class as it ships. */
    private final String reordering;
    final ProcessWorld world = new ProcessWorld(LincheckScenario.START_CLOCK);
    final AcceptanceLog log = new AcceptanceLog();
    /** The running process's filter; replaced by {@link #restart}. */
    volatile ConcurrentScmpFilter filter;

    FilterLincheckBase(ScmpConfig config, String reordering) {
        this.config = config;
        this.reordering = reordering;
        ConcurrentScmpFilter f = FilterSeams.fresh(config, world.clock, world.storage, reordering);
        for (int[] m : LincheckScenario.acceptedBefore(config)) {
            log.record(m[0], m[1], f.receive(LincheckScenario.conn(m[0]), Timestamp.of(m[1])));
        }
        if (LincheckScenario.restartedBefore(config)) {
            f = FilterSeams.restart(config, world.clock, world.storage, reordering);
            world.clock.advance(1);
        }
        filter = f;
    }

    @Operation
    public Verdict receive(@Param(name = "conn") int conn, @Param(name = "ts") int ts) {
        return world.step(() -> {
            Verdict v = filter.receive(LincheckScenario.conn(conn), Timestamp.of(ts));
            if (v == Verdict.ACCEPTED && config.scheme() == RecoveryScheme.RESILIENT && ts > world.stableLatest()) {
                log.violated("(c" + conn + ", " + ts + ") accepted above stable latest " + world.stableLatest()
                        + " (AcceptedBelowStable)");
            }
            return log.record(conn, ts, v);
        });
    }

    @Operation
    public boolean collectGarbage(@Param(name = "conn") int conn) {
        return world.step(() -> filter.collectGarbage(LincheckScenario.conn(conn)));
    }

    /** The full pass the runtime's collector runs. */
    @Operation
    public int collectGarbage() {
        return world.stillClockStep(() -> filter.collectGarbage());
    }

    @Operation
    public void tick() {
        world.tick();
    }

    /** Crash then Recover: the process dies and a new one starts on the same stable storage. */
    @Operation
    public void restart() {
        world.restart(() -> filter = FilterSeams.restart(config, world.clock, world.storage, reordering));
    }

    @Validate
    public void noMessageAcceptedTwice() {
        log.validate();
    }
}
