package dev.onceproof.storage;

import java.nio.file.Path;

/**
 * A snapshot file exists but cannot be trusted. Whoever owns it must stop rather than guess: an
 * exactly-once client that forgot part of R would process a note twice.
 */
public final class CorruptSnapshotException extends RuntimeException {

    private final String where;

    public CorruptSnapshotException(Path file, String problem) {
        this("snapshot file " + file, problem);
    }

    /** @param where what holds the snapshot, e.g. {@code "snapshot file /var/lib/eo/client"} */
    public CorruptSnapshotException(String where, String problem) {
        super(where + " is corrupt: " + problem
                + "; refusing to guess its contents (restore the file or start a new identity)");
        this.where = where;
    }

    public String where() {
        return where;
    }
}
