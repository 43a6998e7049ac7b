package dev.onceproof.rpc.core;

/** What a server step did: the spec's {@code outcome} strings in {@code lastAction}. */
public enum ServerOutcome {
    /** A new CALL: the entry is COMPUTING and an Execute effect starts the call (Fig. 3-1, 2). */
    EXECUTE("execute"),
    /** A duplicate of the call being computed: ACK sent (Fig. 3-1, 3). */
    ACK("ack"),
    /** A duplicate of the call whose reply is stored: REPLY retransmitted (Fig. 3-1, 3). */
    RETRANSMIT_REPLY("retransmitReply"),
    /** Flagged duplicate and no entry for this call: REJECT sent (our addition; see RpcMessage.Reject). */
    REJECT("reject"),
    /** Above latest (Fig. 2-2 rule 1): not judged now; the client's retransmission will be. */
    TOO_EARLY("tooEarly"),
    /** Nothing to do: a duplicate in IDLE, a stale REPLY-ACK or completion, a message for a client. */
    IGNORE("ignore"),
    /** A computation completed: REPLY sent, entry REPLYING (Fig. 3-1, completion). */
    REPLY("reply"),
    /** A REPLY-ACK for the stored reply: entry IDLE (Fig. 3-1, REPLY-ACK). */
    IDLE("idle");

    private final String specName;

    ServerOutcome(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }

    public static ServerOutcome fromSpecName(String name) {
        for (ServerOutcome o : values()) {
            if (o.specName.equals(name)) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown server outcome \"" + name + "\"");
    }
}
