package dev.onceproof.conformance.validate;

import dev.onceproof.conformance.tla.TlaValue;
import java.util.List;

/**
 * Why a log was rejected.
 *
 * @param taken    how many lines the longest accepted prefix took (over all processes)
 * @param tried    in the state shown, the next line of each process that still had one: none of them
 *                 can be taken from any reachable state with this many lines taken
 * @param states   how many distinct spec states (with cursors) took that many lines
 * @param state    one of them: the first breadth-first search reached
 * @param enabled  the spec actions enabled in it (its Next, with parameters)
 */
public record Rejection(int taken, List<Tried> tried, int states, TlaValue.Record state, List<String> enabled) {

    public Rejection {
        tried = List.copyOf(tried);
        enabled = List.copyOf(enabled);
    }

    /** A process's next line: its index in that process's log (1-based), file:line, and its text. */
    public record Tried(String process, int index, String origin, String text) {
    }
}
