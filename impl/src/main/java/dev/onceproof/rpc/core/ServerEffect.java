package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.util.Objects;

/**
 * What the caller of {@link RpcServerCore} must do after a step. Effects are carried out in list
 * order. A step returns at most one of each kind; see {@link ServerStep} for the ordering rule.
 */
public sealed interface ServerEffect {

    /**
     * Begin the user-level computation of call (conn, ts) (Figure 3-1, 2). When it finishes, and
     * after its own side effects are durable, call {@link RpcServerCore#complete}; the REPLY is sent
     * only then, so a client never sees results the server could lose. The core has already made
     * sure the call runs at most once: never start the same (conn, ts) twice from one Execute.
     */
    record Execute(ConnId conn, Timestamp ts, Payload payload) implements ServerEffect {
        public Execute {
            Objects.requireNonNull(conn, "conn");
            Objects.requireNonNull(ts, "ts");
            Objects.requireNonNull(payload, "payload");
        }
    }

    /** Send this datagram to the client of {@code message.conn()} (best effort; loss is tolerated). */
    record Send(RpcMessage message) implements ServerEffect {
        public Send {
            Objects.requireNonNull(message, "message");
        }
    }
}
