package dev.onceproof.exactlyonce;

/**
 * What a server core of some strategy keeps on stable storage for one client: Strategies 0-3's
 * {@link ServerDurableState}, 4-6's {@link GatherDurableState}. The type a store saves and a core
 * is rebuilt from after a crash.
 */
public sealed interface DurableState permits ServerDurableState, GatherDurableState {
}
