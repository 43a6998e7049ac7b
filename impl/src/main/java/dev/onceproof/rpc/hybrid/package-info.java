/**
 * SCMP inside Birrell and Nelson's RPC: the alternative at the end of section 3.2 of Liskov,
 * Shrira and Wroclawski (1990), specified in specs/rpc/Hybrid.tla and replayed from its traces.
 *
 * <p>A client binds to obtain the server's incarnation number, numbers its calls, and stamps every
 * CALL (retransmissions included) and every ACK with its current clock reading, strictly increasing
 * ({@link HybridClientCore}). The server ({@link HybridServerCore}) applies Birrell and Nelson's
 * rules 1 and 2 (incarnation, sequence number), keeps the ack's timestamp in the entry, removes an
 * acknowledged entry rho after that timestamp while raising {@code upper} to it, and judges calls
 * on connections without an entry by {@code upper} (SCMP's rule 3). Both cores are sans-IO: time
 * comes from an injected {@link java.time.InstantSource}, and steps return the message to send.
 *
 * <p>Ordering rule: the incarnation number {@link HybridServerCore#recover()} returns must be on
 * stable storage before the server answers any call or binding request; nothing else is stable.
 */
package dev.onceproof.rpc.hybrid;
