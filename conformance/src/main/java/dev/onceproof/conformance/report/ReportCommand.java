package dev.onceproof.conformance.report;

import dev.onceproof.conformance.manifest.Repo;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./onceproof report}: the proof map of every family, from specs/&lt;family&gt;/statements.json.
 * With {@code --readmes} it rewrites the family READMEs' proof-map tables instead.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write the proof-map report, or (--readmes) regenerate the family READMEs' proof-map tables.")
public final class ReportCommand implements Callable<Integer> {

    /** Exit code for a broken statements, claims or results file. */
    static final int INPUT_ERROR = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--repo", paramLabel = "DIR",
            description = "Repository root (default: the first directory upwards holding specs/manifest.json).")
    Path root;

    @Option(names = "--readmes", description = "Rewrite the proof-map table of each specs/<family>/README.md and stop.")
    boolean readmes;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Repo repo = root != null ? new Repo(root) : Repo.locate();
        try {
            List<String> families = FamilyStatements.families(repo);
            RefCheck refs = new RefCheck(repo, repo.manifest());
            List<FamilyStatements> all = families.stream().map(f -> FamilyStatements.load(repo, f)).toList();
            List<String> problems = all.stream().flatMap(fs -> refs.problems(fs).stream()).toList();
            if (!problems.isEmpty()) {
                problems.forEach(p -> err.println("onceproof report: " + p));
                return INPUT_ERROR;
            }
            if (readmes) {
                for (FamilyStatements fs : all) {
                    boolean changed = ReadmeTables.rewrite(repo, fs);
                    out.println("specs/" + fs.family() + "/README.md: " + (changed ? "proof map rewritten" : "unchanged")
                            + " (" + fs.statements().size() + " statements)");
                }
                return 0;
            }
            err.println("onceproof report: only --readmes is available in this build");
            return INPUT_ERROR;
        } catch (StatementsException e) {
            err.println("onceproof report: " + e.getMessage());
            return INPUT_ERROR;
        }
    }
}
