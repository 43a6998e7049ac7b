/**
 * Stable storage: SCMP's latest (paper 2.3) and whole-state snapshots (the exactly-once client's
 * R, a server's K and D). Durable, checksummed, never backwards; a corrupt file is refused.
 */
package dev.onceproof.storage;
