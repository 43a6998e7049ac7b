package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.InMemoryStableStorage;

/**
 * Lincheck's sequential specification: the deterministic core, {@link ScmpServer}, which trace
 * replay ties to SCMP.tla. Method names and parameters match the concurrent test classes, so
 * Lincheck can replay any history on it in a candidate linearization order.
 */
public class SequentialScmp {

    private final ManualInstantSource clock = new ManualInstantSource(LincheckScenario.START_CLOCK);
    private final ScmpServer server = new ScmpServer(LincheckScenario.CONFIG, clock, new InMemoryStableStorage());

    public Verdict receive(int conn, int ts) {
        return server.receive(LincheckScenario.conn(conn), Timestamp.of(ts));
    }

    public boolean collectGarbage(int conn) {
        return server.collectGarbage(LincheckScenario.conn(conn));
    }

    public void tick() {
        clock.advance(1);
    }
}
