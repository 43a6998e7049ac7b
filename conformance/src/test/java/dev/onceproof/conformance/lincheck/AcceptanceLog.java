package dev.onceproof.conformance.lincheck;

import dev.onceproof.rpc.core.ServerOutcome;
import dev.onceproof.scmp.Verdict;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The spec invariant NoDuplicateAccepted checked on each explored interleaving: remembers every
 * accepted (conn, ts) and the first one accepted twice, or the first other invariant a step saw
 * broken. For the RPC server, accepted means EXECUTE:
 * Figure 3-1 runs a call at most once.
 */
final class AcceptanceLog {

    private final Set<String> accepted = ConcurrentHashMap.newKeySet();
    private volatile String acceptedTwice;

    Verdict record(int conn, int ts, Verdict verdict) {
        if (verdict == Verdict.ACCEPTED) {
            remember(conn, ts, "message (c" + conn + ", " + ts + ") was accepted twice (NoDuplicateAccepted)");
        }
        return verdict;
    }

    ServerOutcome record(int conn, int ts, ServerOutcome outcome) {
        if (outcome == ServerOutcome.EXECUTE) {
            remember(conn, ts, "call (c" + conn + ", " + ts + ") was executed twice (at most once, Fig. 3-1)");
        }
        return outcome;
    }

    private void remember(int conn, int ts, String problem) {
        if (!accepted.add("c" + conn + "@" + ts)) {
            violated(problem);
        }
    }

    /** Any other spec invariant seen broken during a step (the first one is reported). */
    void violated(String problem) {
        if (acceptedTwice == null) {
            acceptedTwice = problem;
        }
    }

    void validate() {
        String problem = acceptedTwice;
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }
}
