package dev.onceproof.rpc.hybrid;

import java.util.Objects;

/**
 * A hybrid client's abstract state (Hybrid.tla, {@code client[c]}): the incarnation it bound to (0:
 * not bound), the sequence number of its latest call, the timestamp of the latest CALL or ACK it
 * sent, whether it waits for a reply, and the latest call's outcome.
 */
public record HybridClientState(long inc, long seq, long ts, boolean waiting, Outcome outcome) {

    public HybridClientState {
        Objects.requireNonNull(outcome, "outcome");
    }

    /** The spec's {@code Outcomes}. */
    public enum Outcome {
        NONE("none"), REPLIED("replied"), UNKNOWN("unknown");

        private final String specName;

        Outcome(String specName) {
            this.specName = specName;
        }

        public String specName() {
            return specName;
        }
    }
}
