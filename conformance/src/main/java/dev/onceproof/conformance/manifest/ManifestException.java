package dev.onceproof.conformance.manifest;

import java.nio.file.Path;

/** A broken manifest: names the file, the entry (by name, else by index) and the field. */
public final class ManifestException extends RuntimeException {

    public ManifestException(Path file, String entry, String field, String problem) {
        super(file + ": " + (entry == null ? "" : entry + ": ") + (field == null ? "" : "field \"" + field + "\": ")
                + problem);
    }

    public ManifestException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
    }
}
