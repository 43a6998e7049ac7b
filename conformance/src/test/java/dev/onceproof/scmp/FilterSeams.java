package dev.onceproof.scmp;

import dev.onceproof.storage.StableStorage;
import java.time.InstantSource;

/**
 * Builds the real {@link ConcurrentScmpFilter} with one of its package-private mutation seams
 * ({@link ConcurrentScmpFilter.Reordering}), for conformance's Lincheck suite; on the test
 * classpath only. A reordering is named as a string so callers outside the package can pick one.
 */
public final class FilterSeams {

    private FilterSeams() {
    }

    /** A freshly created filter (spec Init) committing the named reordering ("NONE": the real one). */
    public static ConcurrentScmpFilter fresh(ScmpConfig config, InstantSource clock, StableStorage storage,
                                             String reordering) {
        return new ConcurrentScmpFilter(config, clock, storage, false,
                ConcurrentScmpFilter.Reordering.valueOf(reordering));
    }

    /** A restarted process (spec Crash then Recover) committing the named reordering. */
    public static ConcurrentScmpFilter restart(ScmpConfig config, InstantSource clock, StableStorage storage,
                                               String reordering) {
        return new ConcurrentScmpFilter(config, clock, storage, true,
                ConcurrentScmpFilter.Reordering.valueOf(reordering));
    }
}
