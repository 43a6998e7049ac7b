package dev.onceproof.rpc.hybrid;

/** What the server did with a CALL (Hybrid.tla, {@code CallOutcome(m)}). */
public enum CallOutcome {
    /** New call: executed, entry REPLYING, REPLY sent. */
    EXECUTE("execute"),
    /** The entry's own call while its reply is not acknowledged: the reply is sent again. */
    RETRANSMIT_REPLY("retransmitReply"),
    /** Rule 2: not above the entry's sequence number (and not answerable): dropped. */
    DUPLICATE("duplicate"),
    /** Rule 1: the call's incarnation is not the server's: dropped until the client binds again. */
    STALE_INCARNATION("staleIncarnation"),
    /** No entry and the timestamp is at or below upper (SCMP's rule 3a): dropped; a retry is fresh. */
    BELOW_UPPER("belowUpper");

    private final String specName;

    CallOutcome(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }
}
