package dev.onceproof.conformance.tlc;

import dev.onceproof.conformance.tla.TlaValue;
import java.util.Map;

/**
 * One state of a counterexample or simulation trace, as TLC printed it.
 *
 * @param number    TLC's 1-based state number
 * @param label     the action label ("Initial predicate", "Inc", "Stuttering", "Back to state 3")
 * @param variables variable name to value, in TLC's print order; empty for stuttering / back-to-state
 */
public record TraceState(int number, String label, Map<String, TlaValue> variables) {

    public TraceState {
        variables = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(variables));
    }
}
