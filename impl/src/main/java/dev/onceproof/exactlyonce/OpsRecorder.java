package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.List;

/**
 * The operations a Strategy 0-3 server core has made since its last record: the core notes each
 * change to a durable field here as it makes it, and its step's {@link ServerEffect.Record} takes
 * them. One per core, not thread-safe (the core is not).
 */
final class OpsRecorder {

    private final List<ServerOp> ops = new ArrayList<>();
    /** Mutation seam (tests): an operation kind never journaled (the defect replay's store check catches). */
    private Class<? extends ServerOp> dropped;

    void add(ServerOp op) {
        if (dropped == null || !dropped.isInstance(op)) {
            ops.add(op);
        }
    }

    /** The step's record, emptying the list. */
    ServerEffect.Record take() {
        ServerEffect.Record r = new ServerEffect.Record(ops);
        ops.clear();
        return r;
    }

    /** Forgets what a constructor noted (a stored state normalized; recovery normalizes it again). */
    void clear() {
        ops.clear();
    }

    /** The seam: operations of {@code kind} are applied by the core but left out of its records. */
    void drop(Class<? extends ServerOp> kind) {
        this.dropped = kind;
    }
}
