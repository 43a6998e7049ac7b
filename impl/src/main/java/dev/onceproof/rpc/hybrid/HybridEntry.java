package dev.onceproof.rpc.hybrid;

/**
 * A connection table entry (Hybrid.tla, {@code table[c]}): the sequence number of the most recent
 * call, whether its reply still awaits the client's ack ({@code replying}) or the entry is idle, and
 * the ack's timestamp. Invariant: {@code ackTs} is 0 while replying (the spec's placeholder) and the
 * ack's timestamp once idle.
 */
public record HybridEntry(long seq, boolean replying, long ackTs) {

    public HybridEntry {
        if (replying && ackTs != 0) {
            throw new IllegalArgumentException("entry for call " + seq + " is replying but has ack timestamp "
                    + ackTs + ": only an acknowledged entry has one");
        }
    }

    /** The spec's state name: "REPLYING" or "IDLE". */
    public String specState() {
        return replying ? "REPLYING" : "IDLE";
    }
}
