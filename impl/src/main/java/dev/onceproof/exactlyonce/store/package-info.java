/**
 * Durable stores of the exactly-once strategies: the client's R with the application's state
 * ({@link dev.onceproof.exactlyonce.store.ClientStore}), a server's K, D and counters
 * ({@link dev.onceproof.exactlyonce.store.ServerStore}) and, for Strategies 4-6, a server's K, D,
 * TS, the replication round and the aDeliver log
 * ({@link dev.onceproof.exactlyonce.store.GatherServerStore}): each a journal of operations with
 * checkpoints ({@link dev.onceproof.storage.OperationLog}: {@link dev.onceproof.storage.Journal} on
 * disk, {@link dev.onceproof.storage.InMemoryOperationLog} in the test worlds). Strategy 6's
 * client history ({@link dev.onceproof.exactlyonce.store.HistoryStore}) is a journal too, UNKNOWN
 * when absent or corrupt.
 */
package dev.onceproof.exactlyonce.store;
