package dev.onceproof.rpc.wire;

import java.io.IOException;
import java.nio.file.Path;

/** A key file that cannot be used: names the file and, where there is one, the line. */
public final class KeyFileException extends IOException {

    private final Path file;
    private final int line;

    KeyFileException(Path file, int line, String problem, Throwable cause) {
        super(file + (line > 0 ? ":" + line : "") + ": " + problem, cause);
        this.file = file;
        this.line = line;
    }

    public Path file() {
        return file;
    }

    /** 1-based; 0 when the problem is the whole file (missing, unreadable, empty). */
    public int line() {
        return line;
    }
}
