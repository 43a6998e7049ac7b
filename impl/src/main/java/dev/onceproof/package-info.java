/**
 * onceproof: message delivery with model-checked semantics.
 *
 * <p>Protocol cores are sans-IO state machines (see ../shared/DESIGN.md); the TLA+ specs in specs/
 * name the same actions and variables as the Java code (specs/CONVENTIONS.md).
 */
package dev.onceproof;
