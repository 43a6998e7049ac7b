/**
 * The crash test of the server-centric Strategies 4-6 with real processes ({@code ./onceproof
 * crash-eo --strategy 4|5|6}): link 4 of the chain of trust (real files with fsync, real SIGKILLs)
 * for {@link dev.onceproof.exactlyonce.GatherServer} and its runtime
 * {@link dev.onceproof.exactlyonce.ConcurrentGatherServer}.
 *
 * <p><b>Processes.</b> {@link dev.onceproof.conformance.crash.gather.GatherNodeMain}: one server JVM
 * per server (A, B, C), its core state in a {@link dev.onceproof.exactlyonce.store.GatherServerStore}
 * and the aDeliver primitive's application and permanent log in a
 * {@link dev.onceproof.conformance.crash.gather.ProcessedJournal}, each in the server's own directory.
 * {@link dev.onceproof.conformance.crash.gather.GatherClientMain}: the client JVM (Strategy 6 keeps
 * its history H in a {@link dev.onceproof.exactlyonce.store.HistoryStore}).
 * {@link dev.onceproof.conformance.crash.gather.GatherCrashExperiment}: the parent, which starts,
 * kills (SIGKILL) and restarts them and checks the journals
 * ({@link dev.onceproof.conformance.crash.gather.GatherCrashReport}).
 *
 * <p><b>Network: the parent as relay.</b> Each process talks over its stdin/stdout, one line per
 * message; a message between servers is its {@link dev.onceproof.exactlyonce.wire.EoWire} frame in
 * base64. Chosen over loopback sockets because the parent must see every message anyway (to drop and
 * delay syncs from a seed, to lose what is sent to a dead server, to order the check of "no call
 * after a success"), and pipes give per-sender order and an end-of-stream the moment a process dies.
 * What the relay does to messages: syncs dropped (30%, Strategy 6 50%) or delayed up to T_e; D
 * requests and replies delivered at once to a live server and lost to a dead one (the gather then
 * times out and aborts after 500 ms); replicas only while every server is up, the parent waiting
 * until all stored them (atomic replication, notes Z1, which the cores assume).
 *
 * <p><b>What is random, from the seed:</b> the victims, the kill moments (armed 300-700 ms after
 * every process is up, then 0-150 ms into a delivery, else 1.5 s later), downtimes (50-250 ms plus
 * JVM start), connection lengths, the servers the client roams to, sync loss and delay, and the 5%
 * of aDeliver calls that fail. The processes' own timing is not seeded, so two runs with one seed
 * make the same choices but not the same interleaving.
 *
 * <p><b>Step logs</b> ({@code --step-logs DIR}): each server incarnation and each client
 * incarnation writes one ({@link dev.onceproof.conformance.crash.gather.GatherStepLog}), which
 * {@code ./onceproof validate DIR/*.jsonl} checks against ExactlyOnceS4Msg, S5Msg or S6Msg. Strategies
 * 5 and 6 then keep spec time: every process on a 10 ms unit clock read once per step, the servers
 * at fixed offsets of 0, 1 and 2 units (the specs' ClockOffset), T_r, T_u, skew and T_e in units;
 * Strategy 6's push goes out only once the client is away from the server (the parent's PUSH), and a
 * killed client is restarted only after its server left the session.
 */
package dev.onceproof.conformance.crash.gather;
