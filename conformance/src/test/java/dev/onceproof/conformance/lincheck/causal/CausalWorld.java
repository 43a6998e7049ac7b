package dev.onceproof.conformance.lincheck.causal;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.Step;
import dev.onceproof.causal.VectorClock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The small world the causal Lincheck tests explore: node n3 of a three-node causal group, and the
 * messages it may receive, in any order and any number of times: A = (n2, 1); B = (n1, 1), issued
 * after n1 delivered A; C = (n2, 2), issued after n2 delivered B; and a recovered copy of A served
 * by n1. So A -> B -> C, and every arrival order but that one makes n3 buffer.
 *
 * <p>The messages are records, which Lincheck 2.39 cannot walk (lincheck#402), so they are made
 * per operation and never held in a field.
 */
final class CausalWorld {

    static final int MESSAGES = 4;

    final CausalConfig config = CausalConfig.of(3, NodeId.of(2), Mode.CAUSAL, 5, 20, 0);

    /** Made afresh on every call: records may not sit in the object graph Lincheck walks at the start. */
    CausalMessage message(int i) {
        Event a = new Event(EventId.of(1, 1), VectorClock.of(0, 1, 0), Payload.ofUtf8("A"));
        return switch (i) {
            case 0 -> new CausalMessage.Data(a);
            case 1 -> new CausalMessage.Data(new Event(EventId.of(0, 1), VectorClock.of(1, 1, 0), Payload.ofUtf8("B")));
            case 2 -> new CausalMessage.Data(new Event(EventId.of(1, 2), VectorClock.of(1, 2, 0), Payload.ofUtf8("C")));
            default -> new CausalMessage.Resend(NodeId.of(0), a);
        };
    }

    /** A step as an operation result: outcome and the ids it delivered, in order. */
    static String result(Step s) {
        StringBuilder b = new StringBuilder(s.outcome().name());
        for (Event e : s.delivered()) {
            b.append(' ').append(e.id());
        }
        return b.toString();
    }

    /**
     * The application: records what it is given, and the first violation of CausalOrder or
     * NoDuplicateDelivery among A -> B -> C (and FIFO of n3's own events). A named class, not a
     * lambda: Lincheck cannot walk hidden classes either (lincheck#340).
     */
    static final class Application implements Consumer<Event> {
        private final List<EventId> log = new ArrayList<>();
        private String violation;

        @Override
        public synchronized void accept(Event e) {
            EventId id = e.id();
            if (log.contains(id)) {
                violation = "NoDuplicateDelivery: " + id + " delivered twice; log " + log;
            }
            for (EventId dep : deps(id)) {
                if (!log.contains(dep) && violation == null) {
                    violation = "CausalOrder: " + id + " delivered before " + dep + "; log " + log;
                }
            }
            log.add(id);
        }

        private static List<EventId> deps(EventId id) {
            if (id.equals(EventId.of(0, 1))) {
                return List.of(EventId.of(1, 1));
            }
            if (id.equals(EventId.of(1, 2))) {
                return List.of(EventId.of(1, 1), EventId.of(0, 1));
            }
            if (id.origin().index() == 2 && id.seq() > 1) {
                return List.of(new EventId(id.origin(), id.seq() - 1));
            }
            return List.of();
        }

        synchronized void validate() {
            if (violation != null) {
                throw new IllegalStateException(violation);
            }
        }
    }
}
