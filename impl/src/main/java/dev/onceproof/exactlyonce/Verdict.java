package dev.onceproof.exactlyonce;

/**
 * What the client did with a delivered note. Only {@link #ACCEPTED} processes it (L77: a note is
 * "delivered" when accepted and processed). {@link #specName()} is the verdict in traces.
 */
public enum Verdict {
    /** Accepted, processed and recorded as one durable write, then acknowledged. */
    ACCEPTED("accepted"),
    /** Strategy 3: in R, processed before: ignored, acknowledged. */
    DUPLICATE("duplicate"),
    /**
     * Strategies 1-2: not the expected {@code R[x] + 1} (mod W) and not a gap: processed before,
     * so discarded, acknowledged all the same (App. A.2, the ack is part of Receive).
     */
    DISCARDED("discarded"),
    /**
     * Strategy 1: a gap ({@code seq > R[x] + 1}): not processed, not acknowledged (notes Z2:
     * acknowledging it would let the server drop a note never processed). The spec shows gaps
     * cannot arise under atomic replication and abort-on-failure; this guards the runtime.
     */
    OUT_OF_ORDER("outOfOrder"),
    /** Strategy 3: R is full (L169): not processed, not acknowledged, until a purge frees a slot. */
    R_FULL("refused"),
    /** Strategy 3: a purge request ("Please purge i"): i left R durably, then the request is acked. */
    PURGED("purged");

    private final String specName;

    Verdict(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }

    public boolean acknowledged() {
        return this == ACCEPTED || this == DUPLICATE || this == DISCARDED || this == PURGED;
    }
}
