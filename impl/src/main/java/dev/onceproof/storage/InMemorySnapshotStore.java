package dev.onceproof.storage;

import java.util.Optional;

/** A {@link SnapshotStore} in memory (tests, simulation), with the same generation rule. */
public final class InMemorySnapshotStore implements SnapshotStore {

    private Snapshot stored;

    @Override
    public synchronized Optional<Snapshot> read() {
        return Optional.ofNullable(stored);
    }

    @Override
    public synchronized void write(Snapshot snapshot) {
        if (stored != null && snapshot.generation() <= stored.generation()) {
            throw new SnapshotBackwardsException("in-memory snapshot store", snapshot.generation(), stored.generation());
        }
        stored = snapshot;
    }
}
