package dev.onceproof.conformance.lincheck.storage;

import dev.onceproof.conformance.lincheck.Scenarios;
import org.jetbrains.kotlinx.lincheck.Options;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;

/**
 * The journal suite's bounds and its targeted scenarios: each puts two steps of one argument of
 * {@code GroupCommit} or {@code Journal.checkpoint} in parallel.
 *
 * <p><b>Stress mode only.</b> Every operation writes a real file, and Lincheck 2.39's model checking
 * runs the JDK's file-channel code under its own scheduler and loop detector: tried, it reported the
 * journal's opening itself as hung ("active lock detected", in {@code prelude()}), and with the
 * reopen in the validation "Check failed" inside its strategy. So the suite runs on real threads with
 * many runs per scenario, and the disk's fsync takes a fraction of a millisecond
 * ({@code JournalSeams}) so that a second committer arrives while the leader forces. What model
 * checking would add, every interleaving of the two committers' monitor steps, is what
 * {@code JournalGroupCommitTest} pins down with a gated fsync.
 */
final class JournalLincheckOptions {

    /**
     * Two committers: one becomes the leader and writes both records or only its own; the other
     * waits for it or leads the next batch (the wait that COMMIT_RETURNS_BEFORE_WRITE skips).
     * A checkpoint, which commits, seals the segment and starts the next, against committers and
     * appenders; two checkpoints racing (the later one must refuse to go backwards or cover more).
     */
    static final String[][] SCENARIOS = {
        {"", "appendAndCommit(1)", "appendAndCommit(2)", ""},
        {"append(1)", "checkpoint(); appendAndCommit(2)", "appendAndCommit(3); checkpoint()", ""},
        {"append(1); append(2)", "commit(); append(3)", "checkpoint(); commit()", "appendAndCommit(1)"},
    };
    /** Random scenarios besides the targeted ones (2 threads x 2 operations, 1 before, 1 after). */
    static final int RANDOM_SCENARIOS = 2;
    static final int STRESS_RUNS = 100;
    static final long INVOCATION_TIMEOUT_MS = 120_000;

    private JournalLincheckOptions() {
    }

    static Options<?, ?> stress(Class<?> testClass) {
        return shape(new StressOptions(), testClass).invocationsPerIteration(STRESS_RUNS);
    }

    private static <O extends Options<O, ?>> O shape(O options, Class<?> testClass) {
        options.sequentialSpecification(SequentialJournal.class).iterations(RANDOM_SCENARIOS).threads(2)
                .actorsPerThread(2).actorsBefore(1).actorsAfter(1)
                // the first reopen in the validation makes Lincheck transform the recovery classes,
                // which took over its 10 s default under load (internal in 2.39: the mangled name)
                .invocationTimeout$lincheck(INVOCATION_TIMEOUT_MS);
        return Scenarios.with(options, testClass, SCENARIOS);
    }
}
