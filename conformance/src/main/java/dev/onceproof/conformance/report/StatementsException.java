package dev.onceproof.conformance.report;

import java.nio.file.Path;

/** A broken statements, claims or results file: names the file and what is wrong where. */
public final class StatementsException extends RuntimeException {

    public StatementsException(Path file, String problem) {
        super(file + ": " + problem);
    }
}
