package dev.onceproof.causal;

/** What a node counts, besides refusals (see {@link Counters}). The simulator's cost metrics read these. */
public enum Count {
    /** Events this node issued. */
    BROADCAST,
    /** Data messages (first transmissions) received, duplicates included. */
    DATA_RECEIVED,
    /** Recovered copies received, duplicates included. */
    RESEND_RECEIVED,
    /** Copies of events already delivered or buffered (dropped). */
    DUPLICATE,
    /** Events handed to the application, own events included. */
    DELIVERED,
    /** First requests for a missing event, to its origin (paper 5.1, after w). */
    REQUEST_SENT,
    /** Further requests after an RTO, to the next known holder (paper 5.3, repeated). */
    REQUEST_RETRY,
    /** Copies sent in answer to requests. */
    RESEND_SENT,
    /** Requests received. */
    REQUEST_RECEIVED,
    /** Heartbeats sent (one per peer). */
    HEARTBEAT_SENT,
    /** Heartbeats received. */
    HEARTBEAT_RECEIVED,
    /** Reveals of missing events cut short because {@code maxMissing} events are tracked already. */
    MISSING_NOT_TRACKED,
    /** Stored events discarded as stable (every node known to have delivered them). */
    COLLECTED
}
