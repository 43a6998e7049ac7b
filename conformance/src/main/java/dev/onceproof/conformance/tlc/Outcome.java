package dev.onceproof.conformance.tlc;

/** What a TLC run found. */
public enum Outcome {
    PASS,
    INVARIANT_VIOLATED,
    ACTION_PROPERTY_VIOLATED,
    TEMPORAL_PROPERTY_VIOLATED,
    DEADLOCK,
    /** SANY could not parse or resolve the spec (TLC's message and location are in the result). */
    PARSE_ERROR,
    /** Anything else TLC reported as an error: a failed ASSUME, an evaluation error, a bad cfg. */
    ERROR,
    TIMEOUT,
    /**
     * A budgeted run ({@link TlcRequest#withBudget}) that TLC stopped when its budget ended before it
     * had searched the whole state space; no violation was found in the part it searched. Never a
     * pass: the result says how far it got (distinct states, depth, the actions never taken).
     */
    INCOMPLETE;

    public boolean isViolation() {
        return this == INVARIANT_VIOLATED || this == ACTION_PROPERTY_VIOLATED
                || this == TEMPORAL_PROPERTY_VIOLATED || this == DEADLOCK;
    }
}
