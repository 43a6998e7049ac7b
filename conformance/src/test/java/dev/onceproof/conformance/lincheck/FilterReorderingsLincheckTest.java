package dev.onceproof.conformance.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.TestDepth;
import dev.onceproof.conformance.lincheck.LincheckOptions.Mode;
import dev.onceproof.conformance.lincheck.LincheckOptions.Suite;
import org.junit.jupiter.api.Test;

/**
 * Each link must be able to fail (DESIGN.md): the real {@link dev.onceproof.scmp.ConcurrentScmpFilter}
 * with one forbidden reordering (its package-private mutation seams), under the operations and bounds
 * of {@link ConcurrentScmpFilterLincheckTest}, must be reported by model checking or stress mode.
 * Each test prints which mode caught it (stress mode runs only when model checking missed, or under
 * {@code -Pdeep}).
 */
class FilterReorderingsLincheckTest {

    /** finishRecovery clears recovering before it raises upper (issue 13 item 4, first finding). */
    public static class RecoveringClearedBeforeUpper extends MonotonicFilterLincheck {
        public RecoveringClearedBeforeUpper() {
            super("RECOVERING_CLEARED_BEFORE_UPPER");
        }
    }

    /** Garbage collection raises upper after the section that removed the entry (second finding). */
    public static class UpperRaisedAfterRemoval extends ResilientFilterLincheck {
        public UpperRaisedAfterRemoval() {
            super("UPPER_RAISED_AFTER_REMOVAL");
        }
    }

    /** writeLatest publishes latest before stable storage holds it. */
    public static class LatestPublishedBeforeDurable extends ResilientFilterLincheck {
        public LatestPublishedBeforeDurable() {
            super("LATEST_PUBLISHED_BEFORE_DURABLE");
        }
    }

    /** receive reads the entry and upper, then puts the entry: check, then act. */
    public static class ReceiveChecksThenActs extends ResilientFilterLincheck {
        public ReceiveChecksThenActs() {
            super("RECEIVE_CHECKS_THEN_ACTS");
        }
    }

    @Test
    void recoveringClearedBeforeUpperIsCaught() {
        assertCaught(RecoveringClearedBeforeUpper.class, Suite.FILTER_MONOTONIC);
    }

    @Test
    void upperRaisedAfterRemovalIsCaught() {
        assertCaught(UpperRaisedAfterRemoval.class, Suite.FILTER_RESILIENT);
    }

    @Test
    void latestPublishedBeforeDurableIsCaught() {
        assertCaught(LatestPublishedBeforeDurable.class, Suite.FILTER_RESILIENT);
    }

    @Test
    void receiveChecksThenActsIsCaught() {
        assertCaught(ReceiveChecksThenActs.class, Suite.FILTER_RESILIENT);
    }

    /**
     * Runs the suite on the reordering; it must be caught. Model checking first; stress mode only if
     * model checking missed it, or under {@code -Pdeep} (which runs both, to print which modes catch
     * it: measured, model checking caught all seven reorderings of this class and
     * {@link RpcReorderingsLincheckTest}, stress mode four). A caught control's failing scenario is
     * not minimized: the verdict is the same, and minimizing is most of a failing run's time.
     */
    static void assertCaught(Class<?> reordering, Suite suite) {
        long t0 = System.nanoTime();
        String modelChecking = LincheckRun.failure(reordering,
                suite.options(reordering, Mode.MODEL_CHECKING).minimizeFailedScenario(false));
        long t1 = System.nanoTime();
        boolean runStress = modelChecking == null || TestDepth.deep();
        String stress = runStress ? LincheckRun.failure(reordering,
                suite.options(reordering, Mode.STRESS).minimizeFailedScenario(false)) : null;
        long t2 = System.nanoTime();
        report(reordering, modelChecking, (t1 - t0) / 1e9, runStress ? (stress != null ? "CAUGHT" : "missed")
                : "not run", stress, (t2 - t1) / 1e9);
        assertThat(modelChecking != null || stress != null).as(reordering.getSimpleName() + " caught").isTrue();
    }

    static void report(Class<?> reordering, String modelChecking, double mcSeconds, String stressVerdict,
            String stress, double stSeconds) {
        System.out.printf("REORDERING %s: model checking %s (%.1f s), stress %s (%.1f s)%n%s%n",
                reordering.getSimpleName(), modelChecking != null ? "CAUGHT" : "missed", mcSeconds,
                stressVerdict, stSeconds,
                modelChecking != null ? modelChecking : stress != null ? stress : "");
    }
}
