package dev.onceproof.conformance.trace;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One state of a trace: the action that led to it (from lastAction), its parameters, and every
 * other variable.
 *
 * @param line the line of the file it was read from (0 for a step not read from a file), for errors
 */
public record TraceStep(int step, String action, ObjectNode params, ObjectNode state, int line) {
}
