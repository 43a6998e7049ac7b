package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.GatherConfig;

/**
 * Lincheck's sequential specification for the Strategy 6 server: the world of
 * {@link GatherLincheckBase} over the bare sequential core (the one trace replay ties to
 * ExactlyOnceS6.tla), each operation running alone.
 */
public class SequentialGather6 extends GatherLincheckBase {

    public SequentialGather6() {
        super(GatherConfig.Strategy.S6, true, ConcurrentGatherServer.AttemptLog.BEFORE_CALL);
    }
}
