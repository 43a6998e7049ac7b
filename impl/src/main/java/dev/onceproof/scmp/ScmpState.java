package dev.onceproof.scmp;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server's abstract state: exactly the server variables of specs/scmp/SCMP.tla, so trace replay
 * compares field by field and a mismatch reads like the spec.
 *
 * @param ct           connection id to timestamp of the last accepted message, only for connections
 *                     that have an entry
 * @param upper        rho class to the bound on every timestamp removed from the table (or, after a
 *                     recovery, possibly accepted before the crash)
 * @param latest       no message with a timestamp above it is accepted (resilient scheme)
 * @param stableLatest the value on stable storage
 * @param up           false between crash() and recover()
 * @param refuseUntil  monotonic scheme: FinishRecovery may not run before the clock reaches it
 * @param recovering   monotonic scheme: restarted and FinishRecovery has not run; every message is
 *                     refused meanwhile
 */
public record ScmpState(Map<String, Long> ct, Map<String, Long> upper, long latest,
                        long stableLatest, boolean up, long refuseUntil, boolean recovering) {

    public ScmpState {
        ct = Collections.unmodifiableMap(new TreeMap<>(ct));
        upper = Collections.unmodifiableMap(new TreeMap<>(upper));
    }
}
