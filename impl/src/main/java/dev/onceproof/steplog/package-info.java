/**
 * Logs of abstract steps for implementation-to-spec trace validation (DESIGN.md, link 5): a runtime
 * or test world writes one JSON line per spec action it takes, and conformance's {@code validate}
 * command checks with TLC that the log is a behaviour of the spec its header names.
 */
package dev.onceproof.steplog;
