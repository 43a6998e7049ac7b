package dev.onceproof.conformance.validate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The stored regression logs of one family, conformance/src/test/resources/validate/FAMILY/: a
 * .jsonl file is a run of one process, a folder a run of several (each of its .jsonl files one
 * process or incarnation). For the build's tests and for {@code verify}:
 * {@code StoredLogs.runs(StoredLogs.dir(repo, "scmp"))}, each run then {@link TraceValidator#validate}.
 */
public final class StoredLogs {

    /** The families whose logs are validated (exactly-once: every strategy, 0 to 6). */
    public static final List<String> FAMILIES = List.of("scmp", "rpc", "exactlyonce", "causal");

    private StoredLogs() {
    }

    public static Path dir(dev.onceproof.conformance.manifest.Repo repo, String family) {
        return repo.root().resolve("conformance/src/test/resources/validate").resolve(family);
    }

    public static List<List<Path>> runs(Path familyDir) {
        List<List<Path>> runs = new ArrayList<>();
        try (Stream<Path> entries = Files.list(familyDir)) {
            for (Path e : entries.sorted().toList()) {
                if (Files.isDirectory(e)) {
                    try (Stream<Path> files = Files.list(e)) {
                        runs.add(files.filter(StoredLogs::isLog).sorted().toList());
                    }
                } else if (isLog(e)) {
                    runs.add(List.of(e));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + familyDir, e);
        }
        return runs;
    }

    private static boolean isLog(Path f) {
        return f.getFileName().toString().endsWith(".jsonl");
    }
}
