package dev.onceproof.conformance.lincheck.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.onceproof.storage.JournalSeams;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * The negative controls of {@link JournalLincheckTest}: the same suite on the journal with one of
 * its defects must fail, for the reason the defect breaks. (APPEND_LOCK_HELD_ACROSS_FORCE costs
 * throughput, not safety: {@code JournalGroupCommitTest} shows it with a slow disk.)
 */
class JournalDefectsLincheckTest {

    /** A commit that finds a leader writing returns at once: caught where two commit together. */
    public static class CommitReturnsBeforeWrite extends JournalLincheck {
        public CommitReturnsBeforeWrite() {
            super("COMMIT_RETURNS_BEFORE_WRITE");
        }
    }

    /** Batches counted durable without their fsync: a power loss takes committed operations. */
    public static class AcknowledgedWithoutForce extends JournalLincheck {
        public AcknowledgedWithoutForce() {
            super("ACKNOWLEDGED_WITHOUT_FORCE");
        }
    }

    @Test
    void commitReturningBeforeItsWriteIsCaught() {
        assertCaught(CommitReturnsBeforeWrite.class, "(CommitMeansDurable)");
    }

    @Test
    void batchAcknowledgedWithoutForceIsCaught() {
        assertCaught(AcknowledgedWithoutForce.class, "(CommittedSurvives)");
    }

    private static void assertCaught(Class<?> control, String property) {
        JournalSeams.warmUp();
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> LinChecker.check(control, JournalLincheckOptions.stress(control)
                        // the verdict is all a control needs; minimizing its scenario is slow
                        .minimizeFailedScenario(false)));
        assertThat(e.getMessage()).contains(property);
    }
}
