package dev.onceproof.exactlyonce;

/**
 * Builds gather cores (Strategy 5-6 for the margins) with one of their package-private mutation seams, for conformance's
 * replay tests; on the test classpath only (as {@code FilterSeams} for SCMP). The seam never
 * reaches a runtime: the cores' public API has no way to leave a safety margin out.
 */
public final class GatherSeams {

    private GatherSeams() {
    }

    /**
     * A Strategy 5 or 6 core whose freshness tests leave the 2ε out (the notes' M5-d; see
     * {@link GatherConfig#withSkewLeftOutOfFreshness}).
     */
    public static GatherServer skewLeftOutOfFreshness(GatherConfig config, EoClock clock, GatherDurableState durable) {
        GatherConfig broken = config.withSkewLeftOutOfFreshness();
        return config.strategy() == Strategy.S5 ? new S5Server(broken, clock, durable)
                : new S6Server(broken, clock, durable);
    }

    /**
     * {@code core} whose sync to one peer ({@link GatherServer#sync(ServerId)}) answers while an
     * aDeliver outcome is unknown: the control of replay's {@code DeferPurgeSync} step.
     */
    public static GatherServer answersPeerSyncWhileUnresolved(GatherServer core) {
        core.answersPeerSyncWhileUnresolved();
        return core;
    }

    /**
     * {@code core} with changes of {@code kind} made but not journaled (its records omit them): the
     * control of replay's store check, which must catch the step that made one.
     */
    public static GatherServer withoutJournaling(GatherServer core, Class<? extends GatherOp> kind) {
        core.withoutJournaling(kind);
        return core;
    }
}
