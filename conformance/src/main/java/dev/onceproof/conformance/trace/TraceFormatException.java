package dev.onceproof.conformance.trace;

import java.nio.file.Path;

/** A trace file that does not follow specs/CONVENTIONS.md: names the file and the line. */
public final class TraceFormatException extends RuntimeException {

    private final int line;
    private final String problem;

    public TraceFormatException(Path file, int line, String problem) {
        this(file, line, problem, null);
    }

    public TraceFormatException(Path file, int line, String problem, Throwable cause) {
        super(file + ":" + line + ": " + problem, cause);
        this.line = line;
        this.problem = problem;
    }

    public int line() {
        return line;
    }

    public String problem() {
        return problem;
    }
}
