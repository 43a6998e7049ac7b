package dev.onceproof.conformance.tlc;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One TLC run.
 *
 * @param module        the .tla file to check
 * @param cfg           its .cfg file
 * @param library       extra module directories (-DTLA-Library), e.g. specs/scmp so a mutant in
 *                      specs/scmp/mutants/ can EXTENDS SCMP
 * @param checkDeadlock false passes -deadlock, which tells TLC not to report deadlocks: bounded
 *                      protocol models stop at their bounds, which is not a protocol deadlock
 * @param extraArgs     more TLC arguments (-simulate ..., -coverage 1)
 * @param timeout       the run is ended after this long and reported as a timeout
 * @param budget        null, or how long TLC may search before it stops on its own and the run is
 *                      reported {@link Outcome#INCOMPLETE} with what it reached (see {@link #withBudget})
 * @param checkpoint    null, or the directory TLC checkpoints into and recovers from (see
 *                      {@link #withCheckpoint})
 */
public record TlcRequest(Path module, Path cfg, List<Path> library, boolean checkDeadlock,
                         List<String> extraArgs, Duration timeout, Duration budget, Path checkpoint) {

    /** How often a checkpointed run writes a checkpoint besides the one when its budget ends (TLC's own default). */
    public static final Duration CHECKPOINT_EVERY = Duration.ofMinutes(30);

    public TlcRequest {
        library = List.copyOf(library);
        extraArgs = List.copyOf(extraArgs);
        if (budget != null && budget.toSeconds() < 1) {
            throw new IllegalArgumentException("the budget of a TLC run on " + module + " is " + budget
                    + "; TLC stops after whole seconds, so it must be at least 1 s");
        }
    }

    /** A run without budget or checkpoint. */
    public TlcRequest(Path module, Path cfg, List<Path> library, boolean checkDeadlock, List<String> extraArgs,
                      Duration timeout) {
        this(module, cfg, library, checkDeadlock, extraArgs, timeout, null, null);
    }

    public static TlcRequest modelCheck(Path module, Path cfg, Path library, boolean checkDeadlock,
                                        Duration timeout) {
        return new TlcRequest(module, cfg, List.of(library), checkDeadlock, List.of(), timeout);
    }

    public TlcRequest withArgs(List<String> more) {
        List<String> all = new ArrayList<>(extraArgs);
        all.addAll(more);
        return new TlcRequest(module, cfg, library, checkDeadlock, all, timeout, budget, checkpoint);
    }

    /**
     * The same run, stopped by TLC itself ({@code -Dtlc2.TLC.stopAfter}) once it has searched for
     * {@code budget} (whole seconds). Such a run gets a JVM of its own, since that property is
     * JVM-wide, and TLC's coverage report, from which the result names the actions never taken.
     * A run that does not finish within its budget is {@link Outcome#INCOMPLETE}, never a pass. The
     * timeout is raised to the budget plus two minutes when it is shorter (stopping, and writing a
     * checkpoint, take time after the budget ends).
     */
    public TlcRequest withBudget(Duration budget) {
        Duration floor = budget.plusMinutes(2);
        return new TlcRequest(module, cfg, library, checkDeadlock, extraArgs,
                timeout.compareTo(floor) < 0 ? floor : timeout, budget, checkpoint);
    }

    /**
     * The same run, checkpointed into a folder of {@code dir} named after the hash of the run's inputs
     * ({@link TlcCheckpoint}): TLC writes a checkpoint every {@link #CHECKPOINT_EVERY} and when its
     * budget ends, and a later run of the same inputs recovers from the newest one instead of
     * starting again. A changed spec, cfg or argument gives another folder, so it never recovers a
     * stale checkpoint. Runs in a JVM of its own.
     */
    public TlcRequest withCheckpoint(Path dir) {
        return new TlcRequest(module, cfg, library, checkDeadlock, extraArgs, timeout, budget, dir);
    }

    /** True when the run must have a JVM of its own: a budget (a JVM-wide property) or a checkpoint. */
    public boolean needsOwnJvm() {
        return budget != null || checkpoint != null;
    }
}
