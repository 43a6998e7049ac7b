package dev.onceproof.conformance.trace;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Line 1 of a trace file (specs/CONVENTIONS.md).
 *
 * @param trace     the file's name without .jsonl
 * @param spec      the spec the replayer dispatches on (SCMP), found by following EXTENDS from module
 * @param module    the model module, relative to specs/
 * @param cfg       the model cfg, relative to specs/
 * @param kind      "simulate" or "targeted"
 * @param seed      TLC's -seed for a simulation; null for a targeted trace
 * @param depth     TLC's -depth for a simulation; null for a targeted trace
 * @param trap      the trap invariant of a targeted trace; null for a simulation
 * @param constants the model's constants as TLC evaluated them (cfg names, JSON per CONVENTIONS.md),
 *                  so a replayer configures the core exactly as the model did
 * @param command   the command that makes this file
 * @param inputs    the SHA-256 of everything the file was generated from ({@link TraceInputs})
 * @param digest    the SHA-256 of the file's own bytes with this field left out ({@link TraceCodec#digest}),
 *                  so a file changed after generation (by hand, by a merge) no longer matches it;
 *                  ignored when writing, where it is computed. Both are null in a trace written by
 *                  hand (a test's), which the freshness check never finds fresh
 */
public record TraceHeader(String trace, String spec, String module, String cfg, String kind, Long seed,
                          Integer depth, String trap, ObjectNode constants, String command, String inputs,
                          String digest) {
}
