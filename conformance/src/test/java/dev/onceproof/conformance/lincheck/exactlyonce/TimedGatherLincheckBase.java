package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;

/**
 * The world of {@link GatherLincheckBase} for Strategies 5 and 6, whose servers and client read
 * one shared {@link dev.onceproof.exactlyonce.ManualEoClock}: {@code tick} moves it on by one, racing
 * the visits (Strategy 5's T_r check, the stale sets from TS and the history), the stamps of D
 * replies and syncs, and the deliveries. With the clock an operation, every scenario is
 * deterministic: the sequential specification reads the clock the same way.
 */
public abstract class TimedGatherLincheckBase extends GatherLincheckBase {

    protected TimedGatherLincheckBase(Strategy strategy, boolean sequential,
            ConcurrentGatherServer.AttemptLog attemptLog) {
        super(strategy, sequential, attemptLog);
    }

    protected TimedGatherLincheckBase(Strategy strategy, boolean sequential,
            ConcurrentGatherServer.AttemptLog attemptLog, ConcurrentGatherServer.Deferral deferral) {
        super(strategy, sequential, attemptLog, deferral);
    }

    /** The clock, one tick on (Strategy 5's T_r is one tick). */
    @Operation(nonParallelGroup = "sync")
    public String tick() {
        return advanceClock();
    }
}
