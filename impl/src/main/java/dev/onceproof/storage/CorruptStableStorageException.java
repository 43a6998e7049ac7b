package dev.onceproof.storage;

import java.nio.file.Path;

/**
 * The stable-storage file exists but cannot be trusted. The server must refuse to start rather than
 * guess a latest: a guess below the true value could let a pre-crash duplicate through (paper 2.3,
 * "the server will have failed catastrophically since it has lost its persistent state").
 */
public final class CorruptStableStorageException extends RuntimeException {

    private final Path file;
    private final String problem;

    public CorruptStableStorageException(Path file, String problem) {
        super("stable storage file " + file + " is corrupt: " + problem
                + "; refusing to guess latest (restore the file or start a new server identity)");
        this.file = file;
        this.problem = problem;
    }

    public Path file() {
        return file;
    }

    public String problem() {
        return problem;
    }
}
