package dev.onceproof.rpc.runtime;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;

/**
 * The "user-level computation" of paper Fig. 3-1: what a server does with a CALL the SCMP filter
 * tagged as new. The runtime calls it at most once per call id (connection id and timestamp), from
 * a worker thread, possibly from several workers at once for different connections, so an
 * implementation must be thread-safe.
 *
 * <p>An exception is a broken handler, not a protocol outcome: the runtime logs it and does not
 * reply, so the client sees "outcome unknown", which is the truth (the handler may have done part
 * of its work).
 */
@FunctionalInterface
public interface CallHandler {

    /**
     * Executes one call.
     *
     * @param conn the caller's connection id
     * @param ts   the call's timestamp; with {@code conn} it names the call
     * @param args the call's arguments, as sent
     * @return the results to send in the REPLY
     */
    byte[] execute(ConnId conn, Timestamp ts, byte[] args) throws Exception;
}
