package dev.onceproof.conformance.trace;

import dev.onceproof.conformance.manifest.Repo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** A copy of src/test/resources/tinyrepo (the Counter family) in a temp dir, free to change. */
public final class TinyRepo {

    private TinyRepo() {
    }

    public static Repo copyTo(Path dir) {
        try {
            Path src = Path.of(TinyRepo.class.getResource("/tinyrepo/specs/manifest.json").toURI()).getParent().getParent();
            try (Stream<Path> walk = Files.walk(src)) {
                for (Path p : (Iterable<Path>) walk::iterator) {
                    Path to = dir.resolve(src.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(p, to);
                    }
                }
            }
            Files.createDirectories(dir.resolve("traces"));
            return new Repo(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
