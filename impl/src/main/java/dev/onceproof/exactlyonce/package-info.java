/**
 * Exactly-once delivery in a replicated messaging system, the client-centric Strategies 0-3
 * (strict exactly-once; paper sections 3.1-3.2, App. A.1-A.4): sans-IO server and client cores per
 * strategy ({@code S0Server} ... {@code S3Client}) over shared value types ({@link
 * dev.onceproof.exactlyonce.NoteId}, {@link dev.onceproof.exactlyonce.ServerId}, the messages of
 * {@link dev.onceproof.exactlyonce.EoMessage}), and the thread-safe Strategy 3 server shared by a
 * session and sync rounds. Names follow specs/exactlyonce (see specs/CONVENTIONS.md).
 *
 * <p>The server-centric Strategies 4-6 (relaxed exactly-once: exactly-once given the atomic
 * delivery {@code aDeliver}, sections 3.3.1-3.3.2, App. A.6-A.8) share {@link
 * dev.onceproof.exactlyonce.GatherServer}: a session gathers D from the stale servers, then
 * delivers K - D with aDeliver, whose durable log ({@link dev.onceproof.exactlyonce.GatherDurableState})
 * is the commit point D is derived from; {@link dev.onceproof.exactlyonce.S4Server}, {@link
 * dev.onceproof.exactlyonce.S5Server} and {@link dev.onceproof.exactlyonce.S6Server} differ in the
 * stale set and the sync policy. Their clients: {@link dev.onceproof.exactlyonce.S4Client}
 * (stateless), {@link dev.onceproof.exactlyonce.S5Client} (refuses a connect within T_r) and {@link
 * dev.onceproof.exactlyonce.S6Client} (durable connect history, {@link
 * dev.onceproof.exactlyonce.ClientHistory}). Time parameters and their rules: {@link
 * dev.onceproof.exactlyonce.GatherConfig}.
 *
 * <p>One shape for all seven: a {@link dev.onceproof.exactlyonce.Strategy} and its parameters
 * ({@link dev.onceproof.exactlyonce.StrategyConfig}) build the server and client cores, and every
 * server core is driven through the one step interface {@link dev.onceproof.exactlyonce.EoServer}
 * (the spec-named steps stay on the classes, for trace replay).
 */
package dev.onceproof.exactlyonce;
