package dev.onceproof.conformance.lincheck.storage;

import dev.onceproof.storage.JournalSeams;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * Link 3 of the chain of trust (DESIGN.md) for the journal every durable store is to use: the real
 * {@link dev.onceproof.storage.Journal} with group commit is linearizable (sequence numbers as from
 * one counter), a returned commit is durable, and a power loss keeps every committed operation, on
 * every run Lincheck makes of appends, commits and checkpoints from two threads.
 * {@link JournalDefectsLincheckTest} shows the suite catches a commit that returns early and a batch
 * acknowledged without its fsync. Stress mode only; why in {@link JournalLincheckOptions}.
 */
public class JournalLincheckTest extends JournalLincheck {

    public JournalLincheckTest() {
        super("NONE");
    }

    @Test
    void journalAsItShipsInStressMode() {
        JournalSeams.warmUp();
        LinChecker.check(JournalLincheckTest.class, JournalLincheckOptions.stress(JournalLincheckTest.class));
    }
}
