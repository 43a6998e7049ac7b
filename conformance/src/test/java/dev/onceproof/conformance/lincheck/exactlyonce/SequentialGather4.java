package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;

/**
 * Lincheck's sequential specification for the Strategy 4 server: the world of
 * {@link GatherLincheckBase} over the bare sequential core (the one trace replay ties to
 * ExactlyOnceS4.tla), each operation running alone.
 */
public class SequentialGather4 extends GatherLincheckBase {

    public SequentialGather4() {
        super(Strategy.S4, true, ConcurrentGatherServer.AttemptLog.BEFORE_CALL);
    }
}
