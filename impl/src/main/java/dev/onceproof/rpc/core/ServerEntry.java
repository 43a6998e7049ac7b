package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.scmp.Timestamp;
import java.util.Objects;
import java.util.Optional;

/**
 * One connection-table entry of the RPC server (paper 3.1: "Each table entry contains ..."); the
 * spec's {@code rpc[c]} plus the call timestamp, which the spec keeps in SCMP's {@code ct[c]}.
 *
 * <p>Invariants: {@code reply} is present exactly when {@code state} is REPLYING; {@code replyTime}
 * is the server clock when the reply was first sent, and 0 while COMPUTING (no reply yet; GC never
 * looks at it then); in IDLE it keeps the time of the acknowledged reply, which Figure 3-1's
 * collection rule reads.
 *
 * @param ts the timestamp of the most recently accepted CALL on the connection (the call id)
 */
public record ServerEntry(EntryState state, Timestamp ts, Optional<Payload> reply, long replyTime) {

    public ServerEntry {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(reply, "reply");
        if (reply.isPresent() != (state == EntryState.REPLYING)) {
            throw new IllegalArgumentException("entry in state " + state + (reply.isPresent() ? " has" : " lacks")
                    + " a stored reply; Figure 3-1 stores one exactly while REPLYING");
        }
    }

    static ServerEntry computing(Timestamp ts) {
        return new ServerEntry(EntryState.COMPUTING, ts, Optional.empty(), 0);
    }
}
