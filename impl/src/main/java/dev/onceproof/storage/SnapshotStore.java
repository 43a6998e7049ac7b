package dev.onceproof.storage;

import java.util.Optional;

/**
 * Stable storage for a whole state written at once (the exactly-once client's R with the
 * processing it records, a server's K and D).
 *
 * <p>Contract: {@link #write} is durable and atomic when it returns (after a crash, {@link #read}
 * gives either the previous snapshot or this one, never a mix), and generations strictly grow: a
 * write whose generation is not above the stored one is refused with
 * {@link SnapshotBackwardsException}, changing nothing. {@link #read} returns the last snapshot
 * written, empty if none, and throws {@link CorruptSnapshotException} naming the file rather than
 * guess.
 */
public interface SnapshotStore {

    Optional<Snapshot> read();

    void write(Snapshot snapshot);

    /** What holds the snapshots, for error messages ("snapshot file /path"). */
    default String where() {
        return "in-memory snapshot store";
    }

    /** The generation the next write must exceed (0 if nothing was ever written). */
    default long generation() {
        return read().map(Snapshot::generation).orElse(0L);
    }
}
