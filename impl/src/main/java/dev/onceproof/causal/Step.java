package dev.onceproof.causal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The result of one {@link CausalNode} step: what happened and what the caller must do.
 *
 * <p><b>Ordering rule.</b> The node keeps nothing on stable storage (crash-stop: a crashed node
 * never returns with its old id), so nothing must be durable before a send. Hand {@code delivered}
 * to the application in list order (that order is the causal, FIFO or arrival order the mode
 * promises); the sends may go out in any order and at any time after the step, since the node's
 * state already reflects them.
 *
 * @param refusal null unless the outcome is REFUSED
 * @param detail what was refused and why, naming the value and the rule; empty otherwise
 * @param delivered events handed to the application by this step, in delivery order (immutable)
 * @param sends datagrams to send (immutable)
 */
public record Step(Outcome outcome, Refusal refusal, String detail, List<Event> delivered, List<Outgoing> sends) {

    public Step {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
        if ((outcome == Outcome.REFUSED) != (refusal != null)) {
            throw new IllegalArgumentException("a refusal reason goes with outcome REFUSED only: " + outcome + ", " + refusal);
        }
        delivered = List.copyOf(delivered);
        sends = List.copyOf(sends);
    }

    static Step of(Outcome outcome) {
        return new Step(outcome, null, "", List.of(), List.of());
    }

    static Step refused(Refusal why, String detail) {
        return new Step(Outcome.REFUSED, why, detail, List.of(), List.of());
    }

    static Step accepted(List<Event> delivered, List<Outgoing> sends) {
        return new Step(Outcome.ACCEPTED, null, "", delivered, sends);
    }

    /** This step followed by {@code next}: the first outcome, both deliveries and sends in order. */
    Step then(Step next) {
        if (next.delivered.isEmpty() && next.sends.isEmpty()) {
            return this;
        }
        List<Event> d = new ArrayList<>(delivered);
        d.addAll(next.delivered);
        List<Outgoing> s = new ArrayList<>(sends);
        s.addAll(next.sends);
        return new Step(outcome, refusal, detail, d, s);
    }
}
