package dev.onceproof.rpc.runtime;

import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.wire.Keyring;
import java.util.Objects;

/**
 * How an {@link RpcUdpClient} behaves besides the protocol's retransmission schedule.
 *
 * @param retry         when to retransmit and when to give up (paper 3.1); the server's rho must
 *                      cover its span (2.4)
 * @param replyAcks     when to send the optional REPLY-ACK hint
 * @param maxLeadMillis how far the connection's timestamps may run ahead of the clock before a new
 *                      call waits. Timestamps are milliseconds and strictly increase per connection
 *                      (2.2), so a connection making more than one call per millisecond stamps them
 *                      ahead of the clock; once the lead passes the server's beta its calls are too
 *                      early (Fig. 2-2 rule 1) and stall in retransmissions. Waiting keeps a busy
 *                      connection at its sustainable 1000 calls per second instead, while bursts of
 *                      up to this many calls go at full speed. Keep it below the server's beta.
 * @param keys          null: wire format version 1; else the keyring holding this connection's key:
 *                      calls go out as version 2 and only authentic replies are taken
 */
public record ClientOptions(RetryPolicy retry, ReplyAcks replyAcks, long maxLeadMillis, Keyring keys) {

    /** Without authentication (wire format version 1). */
    public ClientOptions(RetryPolicy retry, ReplyAcks replyAcks, long maxLeadMillis) {
        this(retry, replyAcks, maxLeadMillis, null);
    }

    public ClientOptions {
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(replyAcks, "replyAcks");
        if (maxLeadMillis < 0) {
            throw new IllegalArgumentException("max lead " + maxLeadMillis + " ms is negative");
        }
    }

    /** REPLY-ACKs as the core says (immediately) and a lead of at most a second. */
    public static ClientOptions of(RetryPolicy retry) {
        return new ClientOptions(retry, ReplyAcks.IMMEDIATE, 1_000);
    }

    public ClientOptions withReplyAcks(ReplyAcks mode) {
        return new ClientOptions(retry, mode, maxLeadMillis, keys);
    }

    public ClientOptions withMaxLead(long millis) {
        return new ClientOptions(retry, replyAcks, millis, keys);
    }

    /** Sends version 2 datagrams under the connection's key and accepts only such replies. */
    public ClientOptions withKeys(Keyring keyring) {
        return new ClientOptions(retry, replyAcks, maxLeadMillis, keyring);
    }
}
