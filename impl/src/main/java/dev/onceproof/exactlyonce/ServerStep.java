package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Objects;

/**
 * The result of one server-core step: the outcome (as the spec's {@code lastAction} names it) and
 * what the caller must do.
 *
 * <p><b>Ordering rule.</b> Carry out {@code effects} in list order; a {@link ServerEffect.Record}
 * comes first and must be durable before any {@link ServerEffect.Send} after it leaves. So a
 * server never tells anyone (a sync reply, a purge authorization, a replica) about K or D it could
 * lose in a crash, and a note removed from K after an acknowledgement stays removed. A record
 * carries the step's changes ({@link ServerOp}s), not the state: a caller that runs steps of one
 * core from several threads appends each step's record to the journal under the core's lock (the
 * journal's order is the core's) and, before ANY step's sends leave (a step with no record too: it
 * may send what an earlier step changed), commits the journal through the last record appended
 * when the step ran (group commit: one fsync covers them all).
 *
 * <p><b>Strategies 4-6 and aDeliver</b> (3.3.1, L185-193; {@link GatherServer}). The same order
 * holds for a {@link ServerEffect.RecordGather}. An {@link ServerEffect.ADeliver} comes after the
 * Record that logs the attempt: carry it out (call {@code aDeliver}) only once that record is
 * durable, then report the call's outcome to the core ({@code aDeliverOk} or {@code aDeliverErr},
 * same session and note) and make that step's record durable before the server does anything
 * else for the client. The primitive guarantees that success means the client processed the
 * note exactly once and error means not at all, and that its outcome survives a crash in its own
 * permanent log (L193); after a crash the runtime reports the outcomes of the core's
 * {@code unresolved()} attempts from that log. Never call aDeliver for a note without the core's
 * effect: a second call after a success is undefined (L191), which the core's NoReattempt rule
 * prevents only for calls it issued.
 */
public record ServerStep(String outcome, List<ServerEffect> effects) {

    public ServerStep {
        Objects.requireNonNull(outcome, "outcome");
        effects = List.copyOf(effects);
    }

    static ServerStep of(String outcome) {
        return new ServerStep(outcome, List.of());
    }
}
