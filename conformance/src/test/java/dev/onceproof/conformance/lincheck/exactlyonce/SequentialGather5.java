package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;

/**
 * Lincheck's sequential specification for the Strategy 5 server: the world of
 * {@link TimedGatherLincheckBase} over the bare sequential cores (S5Server, S5Client), each
 * operation running alone.
 */
public class SequentialGather5 extends TimedGatherLincheckBase {

    public SequentialGather5() {
        super(Strategy.S5, true, ConcurrentGatherServer.AttemptLog.BEFORE_CALL);
    }
}
