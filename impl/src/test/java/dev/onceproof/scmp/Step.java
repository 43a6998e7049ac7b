package dev.onceproof.scmp;

/**
 * One step of a random schedule for {@link ScmpWorld}: the spec's environment and server actions.
 * Indices are taken modulo what exists at that moment, so every generated schedule is runnable and
 * shrinks to a shorter runnable one.
 */
sealed interface Step {

    /** Real time and the server clock advance together (spec Tick). */
    record Tick(int millis) implements Step {
    }

    /** The server clock is set back or forward (2.3: correctness must not need a monotonic clock). */
    record ClockJump(int millis) implements Step {
    }

    /** Client of a connection stamps and sends a new message (spec Send(c)). */
    record Send(int conn) implements Step {
    }

    /** A copy of a message in the network reaches the server; keep = the network duplicates it. */
    record Deliver(int message, boolean keep) implements Step {
    }

    /** The network loses every copy of a message (spec Lose(m)). */
    record Lose(int message) implements Step {
    }

    /** Spec CollectGarbage(c). */
    record CollectOne(int conn) implements Step {
    }

    /** A full garbage-collection pass. */
    record CollectAll() implements Step {
    }

    record WriteLatest() implements Step {
    }

    record Crash() implements Step {
    }

    record Recover() implements Step {
    }

    record FinishRecovery() implements Step {
    }
}
