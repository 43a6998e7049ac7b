/**
 * Durable stores of the exactly-once strategies: the client's R with the application's state
 * ({@link dev.onceproof.exactlyonce.store.ClientStore}) and a server's K, D and counters
 * ({@link dev.onceproof.exactlyonce.store.ServerStore}), each a journal of operations with
 * checkpoints ({@link dev.onceproof.storage.OperationLog}: {@link dev.onceproof.storage.Journal} on
 * disk, {@link dev.onceproof.storage.InMemoryOperationLog} in the test worlds); for Strategies
 * 4-6 a server's K, D, TS and aDeliver log ({@link dev.onceproof.exactlyonce.store.GatherServerStore})
 * and Strategy 6's client history ({@link dev.onceproof.exactlyonce.store.HistoryStore}, UNKNOWN
 * when absent or corrupt), those two over any
 * {@link dev.onceproof.storage.SnapshotStore} (file-backed: fsync, atomic rename, CRC32C,
 * generations that never go backwards).
 */
package dev.onceproof.exactlyonce.store;
