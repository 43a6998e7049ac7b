package dev.onceproof.rpc.core;

/** The server state of one connection (paper 3.1, Figure 3-1); the spec's {@code state} strings. */
public enum EntryState {
    /** The reply was acknowledged (REPLY-ACK); only the call timestamp is kept. */
    IDLE("IDLE"),
    /** A new CALL was accepted and the user-level computation has not completed. */
    COMPUTING("COMPUTING"),
    /** The reply was sent and is stored for retransmission on a duplicate CALL. */
    REPLYING("REPLYING");

    private final String specName;

    EntryState(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }

    public static EntryState fromSpecName(String name) {
        for (EntryState s : values()) {
            if (s.specName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown entry state \"" + name
                + "\"; the spec's states are IDLE, COMPUTING, REPLYING");
    }
}
