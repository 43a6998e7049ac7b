package dev.onceproof.conformance.replay;

import dev.onceproof.conformance.manifest.Repo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The trace files under traces/ (optionally one family's), sorted. */
public final class StoredTraces {

    private StoredTraces() {
    }

    public static List<Path> all(Repo repo) {
        return under(repo.traces());
    }

    public static List<Path> family(Repo repo, String family) {
        return under(repo.traces().resolve(family));
    }

    private static List<Path> under(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.toString().endsWith(".jsonl")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }
}
