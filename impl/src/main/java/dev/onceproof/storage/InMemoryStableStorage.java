package dev.onceproof.storage;

import java.util.OptionalLong;

/**
 * Stable storage for simulation and trace replay: survives {@code ScmpServer.crash()} because the
 * crash only clears the server's volatile state, not this object.
 */
public final class InMemoryStableStorage implements StableStorage {

    /** Invariant: only ever increases once present (the stable-storage contract). */
    private OptionalLong stored = OptionalLong.empty();

    public InMemoryStableStorage() {
    }

    public InMemoryStableStorage(long initial) {
        stored = OptionalLong.of(initial);
    }

    @Override
    public synchronized OptionalLong read() {
        return stored;
    }

    @Override
    public synchronized void write(long latest) {
        if (stored.isPresent() && latest < stored.getAsLong()) {
            throw new StableStorageBackwardsException(latest, stored.getAsLong());
        }
        stored = OptionalLong.of(latest);
    }
}
