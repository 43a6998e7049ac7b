/**
 * Stable storage: SCMP's latest (paper 2.3), whole-state snapshots (the exactly-once client's R, a
 * server's K and D), and the {@link dev.onceproof.storage.Journal} of operations with group commit
 * whose checkpoint compacts it (issue 19: incremental durability). Durable, checksummed, never
 * backwards; a corrupt file is refused, naming file and offset.
 */
package dev.onceproof.storage;
