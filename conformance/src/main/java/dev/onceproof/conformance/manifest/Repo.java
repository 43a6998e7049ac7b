package dev.onceproof.conformance.manifest;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository layout the tools read: specs/ with its manifest, traces/. */
public record Repo(Path root) {

    public Repo {
        root = root.toAbsolutePath().normalize();
    }

    /**
     * The repository holding the working directory: the first ancestor with specs/manifest.json.
     * Maven runs the conformance tests in conformance/, the script at the root; both find it.
     */
    public static Repo locate() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("specs").resolve("manifest.json"))) {
                return new Repo(d);
            }
        }
        throw new IllegalStateException("no specs/manifest.json in " + dir + " or any directory above it");
    }

    public Path specs() {
        return root.resolve("specs");
    }

    public Path manifestFile() {
        return specs().resolve("manifest.json");
    }

    public Path traces() {
        return root.resolve("traces");
    }

    /** specs/&lt;family&gt;: the TLA-Library directory of a family, so mutants can EXTENDS its spec. */
    public Path familyDir(String family) {
        return specs().resolve(family);
    }

    public Manifest manifest() {
        return ManifestLoader.load(manifestFile());
    }
}
