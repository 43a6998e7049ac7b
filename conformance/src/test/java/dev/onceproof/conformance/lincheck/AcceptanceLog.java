package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.Verdict;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The spec invariant NoDuplicateAccepted checked on each explored interleaving: remembers every
 * accepted (conn, ts) and the first one accepted twice.
 */
final class AcceptanceLog {

    private final Set<String> accepted = ConcurrentHashMap.newKeySet();
    private volatile String acceptedTwice;

    Verdict record(int conn, int ts, Verdict verdict) {
        if (verdict == Verdict.ACCEPTED && !accepted.add("c" + conn + "@" + ts)) {
            acceptedTwice = "message (c" + conn + ", " + ts + ") was accepted twice (NoDuplicateAccepted)";
        }
        return verdict;
    }

    void validate() {
        String problem = acceptedTwice;
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }
}
