package dev.onceproof.rpc.core;

import java.util.Objects;

/**
 * The client connection's abstract state: the spec's {@code client[c]} record, compared field by
 * field in trace replay.
 *
 * @param waiting true while a call is outstanding (sent, not yet replied, rejected or timed out)
 * @param ts      the timestamp (call id) of the last call; before any call, the initial lastSent
 * @param acked   an ACK for the outstanding call arrived, so retransmissions are truncated
 * @param tries   transmissions of the last call, the first included
 * @param outcome how the last call ended, NONE while waiting and before the first call
 */
public record ClientState(boolean waiting, long ts, boolean acked, int tries, CallOutcome outcome) {

    public ClientState {
        Objects.requireNonNull(outcome, "outcome");
        if (waiting && outcome != CallOutcome.NONE) {
            throw new IllegalArgumentException("a waiting call has outcome " + outcome);
        }
    }
}
