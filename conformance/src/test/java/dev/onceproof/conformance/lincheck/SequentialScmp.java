package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.InMemoryStableStorage;

/**
 * Lincheck's sequential specification: the deterministic core, {@link ScmpServer}, which trace
 * replay ties to SCMP.tla, in the same world as the test ({@link LincheckScenario}). Method names
 * and parameters match the concurrent test classes, so Lincheck can replay any history on it in a
 * candidate linearization order. Subclasses pick the scheme (Lincheck needs a no-argument class).
 */
public abstract class SequentialScmp {

    private final ManualInstantSource clock = new ManualInstantSource(LincheckScenario.START_CLOCK);
    private final ScmpServer server;

    SequentialScmp(ScmpConfig config) {
        server = new ScmpServer(config, clock, new InMemoryStableStorage());
        for (int[] m : LincheckScenario.acceptedBefore(config)) {
            server.receive(LincheckScenario.conn(m[0]), Timestamp.of(m[1]));
        }
        if (LincheckScenario.restartedBefore(config)) {
            server.crash();
            server.recover();
            clock.advance(1);
        }
    }

    public Verdict receive(int conn, int ts) {
        return server.receive(LincheckScenario.conn(conn), Timestamp.of(ts));
    }

    public boolean collectGarbage(int conn) {
        return server.collectGarbage(LincheckScenario.conn(conn));
    }

    public int collectGarbage() {
        return server.collectGarbage();
    }

    public void tick() {
        clock.advance(1);
    }

    public void restart() {
        server.crash();
        server.recover();
    }

    public boolean finishRecovery() {
        try {
            server.finishRecovery();
            return true;
        } catch (IllegalStateException notEnabled) {
            return false;
        }
    }

    public long writeLatest() {
        return server.writeLatest();
    }

    public static class Monotonic extends SequentialScmp {
        public Monotonic() {
            super(LincheckScenario.MONOTONIC);
        }
    }

    public static class Resilient extends SequentialScmp {
        public Resilient() {
            super(LincheckScenario.RESILIENT);
        }
    }
}
