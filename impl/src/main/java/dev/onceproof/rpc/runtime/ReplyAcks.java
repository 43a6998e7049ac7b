package dev.onceproof.rpc.runtime;

/**
 * When the client sends the REPLY-ACK that the client core asks for after a REPLY. The paper makes
 * it optional ("the client may optionally send a REPLY-ACK message as a hint to the server", 3.1):
 * it only lets the server drop the stored reply before garbage collection would. Dropping or
 * delaying it is safe because the protocol already tolerates its loss.
 */
public enum ReplyAcks {
    /** As the core says: right after the REPLY. One more datagram each way per call. */
    IMMEDIATE,
    /**
     * Held until it is known to be needed: dropped when the connection makes another call (the new
     * CALL makes the server discard the stored reply, Fig. 3-1), sent on close otherwise. A client
     * making sequential calls then sends one datagram per call, as plain UDP does.
     */
    DEFERRED,
    /** Never sent: the server keeps each reply until garbage collection (rho' = max(rho, kappa)). */
    OFF
}
