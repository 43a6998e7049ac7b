package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Objects;

/** What the caller of a server core must do after a step; see {@link ServerStep} for the order. */
public sealed interface ServerEffect {

    /**
     * Make the step's changes to the durable state, {@code ops} in order, durable as ONE atomic unit
     * (one journal record: a crash keeps all of them or none) before carrying out the effects after
     * it. The list may be empty (a step that changed nothing durable); the caller must still make
     * durable what earlier steps appended before this step's sends leave (see {@link ServerStep}).
     */
    record Record(java.util.List<ServerOp> ops) implements ServerEffect {
        public Record {
            ops = java.util.List.copyOf(Objects.requireNonNull(ops, "ops"));
        }
    }

    /** Send {@code message} (to the client of the session, or to the server it names). */
    record Send(EoMessage message) implements ServerEffect {
        public Send {
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * Strategies 4-6: call {@code aDeliver(c, note)} (3.3.1, L185-193) for session {@code session}
     * and report its outcome to the core ({@code aDeliverOk} / {@code aDeliverErr} with the same
     * session and note). The attempt is already in the durable aDeliver log (the Record before it),
     * so a crash before the outcome is reported leaves it there, unresolved, until the runtime reads
     * the outcome from the primitive's own permanent log (L193) and reports it.
     */
    record ADeliver(long session, Note note) implements ServerEffect {
        public ADeliver {
            Objects.requireNonNull(note, "note");
        }
    }

    /**
     * Strategies 4-6: make the step's changes to K, D, TS, the session counter, the aDeliver log and
     * the replication round ({@link GatherDurableState}) durable, as one atomic unit, before carrying
     * out the effects after it (see {@link ServerStep}). {@code ops} are in the order the core made
     * them; empty when the step changed nothing durable (its sends may still reflect earlier steps'
     * changes, so a concurrent runtime commits everything appended before them either way).
     */
    record RecordGather(List<GatherOp> ops) implements ServerEffect {
        public RecordGather {
            ops = List.copyOf(ops);
        }
    }
}
