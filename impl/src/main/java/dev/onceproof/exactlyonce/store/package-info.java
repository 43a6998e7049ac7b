/**
 * Durable stores of the exactly-once strategies: the client's R with the application's state as
 * one snapshot ({@link dev.onceproof.exactlyonce.store.ClientStore}) and a server's K, D and
 * counters ({@link dev.onceproof.exactlyonce.store.ServerStore}), over any
 * {@link dev.onceproof.storage.SnapshotStore} (file-backed: fsync, atomic rename, CRC32C,
 * generations that never go backwards).
 */
package dev.onceproof.exactlyonce.store;
