package dev.onceproof.storage;

import java.nio.file.Path;

/**
 * A journal segment holds bytes that cannot be a crash's torn tail: a bad record with a good one
 * after it, a bad record in a segment that was sealed (forced whole before the next one began), a
 * gap in the sequence numbers. Opening stops and changes nothing: guessing would drop operations
 * that were acknowledged as durable.
 */
public final class CorruptJournalException extends RuntimeException {

    private final Path file;
    private final long offset;

    public CorruptJournalException(Path file, long offset, String problem) {
        super("journal file " + file + " is corrupt at offset " + offset + ": " + problem
                + "; refusing to guess its contents (restore the directory or start a new identity)");
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    /** Byte offset in {@link #file()} of the first byte that cannot be trusted. */
    public long offset() {
        return offset;
    }
}
