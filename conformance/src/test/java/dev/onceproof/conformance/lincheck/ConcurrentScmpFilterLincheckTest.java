package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ConcurrentScmpFilter;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.InMemoryStableStorage;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * Link 3 of the chain of trust (DESIGN.md): {@link ConcurrentScmpFilter} is linearizable with
 * respect to the sequential core, and no interleaving accepts one message twice. Operations are
 * the spec's Receive(m) and CollectGarbage(c) and a Tick of the server clock; the full collection
 * pass is a sequence of CollectGarbage(c) steps, each atomic, and is not itself one atomic step.
 */
public class ConcurrentScmpFilterLincheckTest extends FilterLincheckBase {

    private final ConcurrentScmpFilter filter =
            new ConcurrentScmpFilter(LincheckScenario.CONFIG, clock, new InMemoryStableStorage());

    @Override
    Verdict judge(ConnId conn, Timestamp ts) {
        return filter.receive(conn, ts);
    }

    @Override
    boolean collect(ConnId conn) {
        return filter.collectGarbage(conn);
    }

    @Test
    void linearizableAndNeverAcceptsTwice() {
        LinChecker.check(ConcurrentScmpFilterLincheckTest.class, LincheckOptions.modelChecking());
    }
}
