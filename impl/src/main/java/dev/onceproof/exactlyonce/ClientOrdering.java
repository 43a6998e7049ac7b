package dev.onceproof.exactlyonce;

/**
 * Mutation seam for the crash test's negative control: the order of the durable record and the
 * acknowledgement in an accepting {@link ClientStep}. Production code uses
 * {@link #RECORD_THEN_ACK}, the ordering rule; {@link #ACK_THEN_RECORD} exists only so that the
 * real-process crash test can show it catches a client that acknowledges before it records.
 */
public enum ClientOrdering {
    RECORD_THEN_ACK,
    ACK_THEN_RECORD
}
