package dev.onceproof.exactlyonce;

/**
 * What the client did with a delivered note. Only {@link #ACCEPTED} processes it (L77: a note is
 * "delivered" when accepted and processed). {@link #specName()} is the verdict in traces.
 */
public enum Verdict {
    /** Accepted, processed and recorded as one durable write, then acknowledged. */
    ACCEPTED("accepted"),
    /** Seen before (in R, or at or below R[x]): not processed again, acknowledged. */
    DUPLICATE("duplicate"),
    /** Strategies 1-2: a gap ({@code seq > R[x] + 1}): not processed, not acknowledged (notes Z2). */
    OUT_OF_ORDER("outOfOrder"),
    /** Strategy 3: R is full (L169): not processed, not acknowledged, until a purge frees a slot. */
    R_FULL("rFull"),
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
        return this == ACCEPTED || this == DUPLICATE || this == PURGED;
    }
}
