/**
 * SCMP, at-most-once message delivery from loosely synchronized clocks (Liskov, Shrira, Wroclawski
 * 1990): the sans-IO server core {@link dev.onceproof.scmp.ScmpServer}, its thread-safe filter, the
 * client's timestamp source and the pluggable lifetime estimate. Names follow specs/scmp/SCMP.tla
 * (see specs/CONVENTIONS.md).
 */
package dev.onceproof.scmp;
