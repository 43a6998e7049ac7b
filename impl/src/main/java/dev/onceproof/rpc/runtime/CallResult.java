package dev.onceproof.rpc.runtime;

import dev.onceproof.rpc.core.CallOutcome;
import dev.onceproof.scmp.Timestamp;
import java.util.Objects;
import java.util.Optional;

/**
 * How one call ended, as the client saw it. The three outcomes mean different things to the
 * application: REPLIED ran exactly once; REJECTED_AS_DUPLICATE will never run from now on but may
 * have run before a server crash; OUTCOME_UNKNOWN ran at most once, maybe never.
 *
 * @param ts      the call id (with the client's connection id)
 * @param outcome never NONE
 * @param reply   the results, present exactly when REPLIED
 * @param tries   transmissions of the CALL, the first included
 * @param nanos   from the first transmission to the end
 */
public record CallResult(Timestamp ts, CallOutcome outcome, Optional<byte[]> reply, int tries, long nanos) {

    public CallResult {
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reply, "reply");
        if (outcome == CallOutcome.NONE || reply.isPresent() != (outcome == CallOutcome.REPLIED)) {
            throw new IllegalArgumentException("outcome " + outcome + (reply.isPresent() ? " with" : " without")
                    + " a reply; only REPLIED carries one");
        }
    }

    public boolean replied() {
        return outcome == CallOutcome.REPLIED;
    }

    /** The results of a REPLIED call. */
    public byte[] replyOrThrow() {
        return reply.orElseThrow(() -> new IllegalStateException("call " + ts + " ended " + outcome
                + ", not replied"));
    }
}
