/**
 * Durable stores of the exactly-once strategies: the client's R with the application's state as
 * one snapshot ({@link dev.onceproof.exactlyonce.store.ClientStore}) and a server's K, D and
 * counters ({@link dev.onceproof.exactlyonce.store.ServerStore}); for Strategies 4-6 a server's K,
 * D, TS and aDeliver log ({@link dev.onceproof.exactlyonce.store.GatherServerStore}) and Strategy 6's
 * client history ({@link dev.onceproof.exactlyonce.store.HistoryStore}, UNKNOWN when absent or
 * corrupt); all over any
 * {@link dev.onceproof.storage.SnapshotStore} (file-backed: fsync, atomic rename, CRC32C,
 * generations that never go backwards).
 */
package dev.onceproof.exactlyonce.store;
