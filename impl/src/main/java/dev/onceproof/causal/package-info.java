/**
 * Reliable causal (and FIFO, and unordered) broadcast with Reactive Error Recovery (Martori and
 * Urso 2016): the sans-IO node {@link dev.onceproof.causal.CausalNode}, its messages
 * ({@link dev.onceproof.causal.CausalMessage}), configuration and abstract state. Names follow
 * specs/causal (see the Causal section of specs/CONVENTIONS.md).
 *
 * <h2>How a runtime or a simulator drives a node</h2>
 * <ul>
 *   <li>{@code broadcast(payload)}: the application issues an event.</li>
 *   <li>{@code handle(message)}: a datagram arrived (decoded; a datagram that does not decode goes to
 *       {@code refuseMalformed(detail)} so that it is counted with the other refusals).</li>
 *   <li>{@code poll()} at {@code nextDeadline()}: timers w and RTO, heartbeats while idle, garbage
 *       collection of the recovery store.</li>
 * </ul>
 * Each returns a {@link dev.onceproof.causal.Step}: hand {@code delivered()} to the application in
 * order, send {@code sends()}. Time comes from the injected {@link dev.onceproof.causal.Ticker} in
 * the caller's unit; w, RTO and the heartbeat interval are in that unit.
 *
 * <h2>Stability and memory</h2>
 * Every message carries a vector clock that is a lower bound of its sender's delivered prefix (an
 * event's clock at issue; a heartbeat's clock). A node keeps the highest it has seen per node
 * (a matrix clock) and drops a stored event once every node's row covers it. Buffer, store and
 * tracked-missing set are bounded ({@link dev.onceproof.causal.CausalConfig}); a full store refuses
 * broadcasts, a full buffer refuses events that cannot be delivered yet (heartbeats make them
 * recovered later), and both are counted ({@link dev.onceproof.causal.Refusal}).
 *
 * <h2>Failure model</h2>
 * Crash-stop (paper L271 "faulty process"; reading notes Z25). No stable storage is needed:
 * a restarted process must join with a new node id, since reusing sequence numbers would break the
 * uniqueness of event content that duplicate suppression relies on. A crashed node stops garbage
 * collection for everyone (its row never grows); the store bound turns that into refusals.
 */
package dev.onceproof.causal;
