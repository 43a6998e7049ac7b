package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Repo;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** --repo, shared by the commands that read specs/ and traces/ (tests point it at a small repo). */
public final class RepoOption {

    @Option(names = "--repo", paramLabel = "DIR",
            description = "Repository root (default: the first directory upwards holding specs/manifest.json).")
    Path root;

    Repo repo() {
        return root != null ? new Repo(root) : Repo.locate();
    }
}
