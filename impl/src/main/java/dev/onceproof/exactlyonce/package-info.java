/**
 * Exactly-once delivery in a replicated messaging system, the client-centric Strategies 0-3
 * (strict exactly-once; paper sections 3.1-3.2, App. A.1-A.4): sans-IO server and client cores per
 * strategy ({@code S0Server} ... {@code S3Client}) over shared value types ({@link
 * dev.onceproof.exactlyonce.NoteId}, {@link dev.onceproof.exactlyonce.ServerId}, the messages of
 * {@link dev.onceproof.exactlyonce.EoMessage}), and the thread-safe Strategy 3 server shared by a
 * session and sync rounds. Names follow specs/exactlyonce (see specs/CONVENTIONS.md).
 */
package dev.onceproof.exactlyonce;
