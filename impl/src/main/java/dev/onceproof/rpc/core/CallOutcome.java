package dev.onceproof.rpc.core;

/** How a call ended for the client; the spec's {@code outcome} strings ("none" before any call). */
public enum CallOutcome {
    /** No call has ended yet on this connection. */
    NONE("none"),
    /** The REPLY for this call arrived: the call ran exactly once. */
    REPLIED("replied"),
    /**
     * The server sent REJECT: SCMP flagged the CALL a duplicate and the server has no entry for it.
     * The server will never start the call from now on; it may have run it before a crash or before
     * its entry was collected. Only the server can cause this outcome.
     */
    REJECTED_AS_DUPLICATE("rejected"),
    /** Timed out after {@link RetryPolicy#maxTries()} transmissions: ran at most once, maybe never. */
    OUTCOME_UNKNOWN("unknown");

    private final String specName;

    CallOutcome(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }

    public static CallOutcome fromSpecName(String name) {
        for (CallOutcome o : values()) {
            if (o.specName.equals(name)) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown call outcome \"" + name
                + "\"; the spec's outcomes are none, replied, rejected, unknown");
    }
}
