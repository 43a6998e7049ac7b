package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;

/**
 * Lincheck's sequential specification for the Strategy 6 server: the world of
 * {@link TimedGatherLincheckBase} over the bare sequential cores (S6Server, S6Client), each
 * operation running alone.
 */
public class SequentialGather6 extends TimedGatherLincheckBase {

    public SequentialGather6() {
        super(Strategy.S6, true, ConcurrentGatherServer.AttemptLog.BEFORE_CALL);
    }
}
