package dev.onceproof.conformance.trace;

import java.nio.file.Path;

/** A trace file that does not follow specs/CONVENTIONS.md: names the file and the line. */
public final class TraceFormatException extends RuntimeException {

    public TraceFormatException(Path file, int line, String problem) {
        super(file + ":" + line + ": " + problem);
    }

    public TraceFormatException(Path file, int line, String problem, Throwable cause) {
        super(file + ":" + line + ": " + problem, cause);
    }
}
