/**
 * Sans-IO cores of the at-most-once RPC of Liskov, Shrira and Wroclawski (1990, section 3.1,
 * Figure 3-1): {@link dev.onceproof.rpc.core.RpcServerCore} on top of the SCMP filter and
 * {@link dev.onceproof.rpc.core.RpcClientCore}, one per client connection. Names follow
 * specs/rpc/RPC.tla (see the RPC section of specs/CONVENTIONS.md).
 *
 * <h2>How a runtime drives them</h2>
 * <ul>
 *   <li>Server: decode a datagram, {@code receive(message)}, perform the returned effects in order:
 *       {@code Send} a datagram, {@code Execute} hands (conn, ts, payload) to a worker; when the
 *       worker's results are durable, {@code complete(conn, ts, result)} and send its REPLY.
 *       Periodically {@code writeLatest()} (Fig. 2-2, before latest is reached by client clocks)
 *       and {@code collectGarbage()}.</li>
 *   <li>Client: {@code call(args)}, perform effects ({@code Send}, {@code SetTimer},
 *       {@code CancelTimer}, {@code Complete} to the application); on the timer
 *       {@code timerExpired()}; on a datagram {@code receive(message)}.</li>
 * </ul>
 *
 * <h2>Thread safety</h2>
 * Both cores are sequential and not thread-safe: they are what the TLC traces replay. From several
 * threads use {@link dev.onceproof.rpc.core.ConcurrentRpcServer}, as the UDP runtime does: the same
 * decisions in per-connection sections over the concurrent SCMP filter, no global lock, checked
 * linearizable against the server core by Lincheck. Guard each client connection by its own lock. Records, enums and effect
 * lists are immutable and may be shared freely; the wire package is stateless.
 *
 * <h2>Telling the client a CALL was ruled out</h2>
 * Figure 3-1 ignores a DUPLICATE CALL without a table entry; we answer it with REJECT (conn, ts)
 * (also when the entry belongs to a later call on the connection), and the client ends the call as
 * {@link dev.onceproof.rpc.core.CallOutcome#REJECTED_AS_DUPLICATE}. A timed-out call is
 * {@link dev.onceproof.rpc.core.CallOutcome#OUTCOME_UNKNOWN}: only the server can cause a rejection.
 */
package dev.onceproof.rpc.core;
