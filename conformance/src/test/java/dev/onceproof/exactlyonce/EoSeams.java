package dev.onceproof.exactlyonce;

/**
 * The exactly-once cores' package-private mutation seams, opened to the conformance tests (this
 * class sits in the cores' package, on the test classpath only), so a replay test builds a broken
 * core the way the runtime builds the real one.
 */
public final class EoSeams {

    private EoSeams() {
    }

    /** Strategy 1's servers merge a peer's prefix by overwriting it (ExactlyOnceS1Msg's rule "merge" removed). */
    public static StrategyConfig prefixOverwrite(StrategyConfig config) {
        return config.withPrefixOverwrite();
    }
}
