package dev.onceproof.rpc.hybrid;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hybrid server's abstract state, the spec's server variables (Hybrid.tla): trace replay
 * compares it field by field after every step.
 *
 * @param table connection id to entry, sorted
 */
public record HybridServerState(long incarnation, boolean up, Map<String, HybridEntry> table, long upper) {

    public HybridServerState {
        table = Collections.unmodifiableMap(new TreeMap<>(table));
    }
}
