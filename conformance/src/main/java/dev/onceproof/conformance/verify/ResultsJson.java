package dev.onceproof.conformance.verify;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Verify's results as JSON ({@link VerifyResults}), written whole or not at all. */
public final class ResultsJson {

    /** Where every verify run leaves its results for {@code ./onceproof report} (not committed). */
    public static final String LAST_RESULTS = "target/onceproof/last-results.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            // A newer verify may add fields; an older merge or report must still read the file.
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ResultsJson() {
    }

    public static void write(Path file, VerifyResults results) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path tmp = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
            JSON.writeValue(tmp.toFile(), results);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Reads a results file; a file that is not one is an IllegalArgumentException naming it and the cause. */
    public static VerifyResults read(Path file) {
        VerifyResults r;
        try {
            r = JSON.readValue(file.toFile(), VerifyResults.class);
        } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": not a verify results file: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot be read: " + e.getMessage());
        }
        if (!VerifyResults.SCHEMA.equals(r.schema())) {
            throw new IllegalArgumentException(file + ": field \"schema\" is " + (r.schema() == null ? "missing"
                    : "\"" + r.schema() + "\"") + ", expected \"" + VerifyResults.SCHEMA + "\"");
        }
        return r;
    }
}
