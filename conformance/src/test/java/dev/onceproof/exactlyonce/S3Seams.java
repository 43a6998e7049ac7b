package dev.onceproof.exactlyonce;

import java.util.function.UnaryOperator;

/**
 * The package-private seams of Strategy 3's configuration, for conformance's trace-validation
 * controls (a test class in impl's package, so the seams stay out of the public API).
 */
public final class S3Seams {

    private S3Seams() {
    }

    /** Cores without the acknowledged replication round: a note is offered before every server stored it. */
    public static UnaryOperator<StrategyConfig> withoutReplicationRound() {
        return StrategyConfig::withoutReplicationRound;
    }

    /** Cores whose merge ignores a sync's watermark (the stale-sync bug). */
    public static UnaryOperator<StrategyConfig> withoutWatermark() {
        return StrategyConfig::withoutWatermark;
    }
}
