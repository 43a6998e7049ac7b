package dev.onceproof.conformance.report;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.report.ProofMap.FamilyResult;
import dev.onceproof.conformance.report.ProofMap.Flag;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./onceproof report}: the proof map of every family, from specs/&lt;family&gt;/statements.json
 * joined with the last {@code ./onceproof verify} run, as one static HTML page and as Markdown. It is a
 * report, so flags do not change the exit code unless {@code --strict} asks for it (uncovered or failed
 * statements). With {@code --readmes} it rewrites the family READMEs' proof-map tables instead. Every
 * ref of every statements file must resolve first, or nothing is written.
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

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where index.html and proof-map.md go (default: target/onceproof/report under the repository).")
    Path out;

    @Option(names = "--results", paramLabel = "FILE",
            description = "The verify results to read (default: target/onceproof/last-results.json under the repository;"
                    + " when that is missing every entry reads as not run).")
    Path resultsFile;

    @Option(names = "--strict", description = "Exit 1 when a statement is uncovered or its evidence failed.")
    boolean strict;

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
            return report(repo, all, out);
        } catch (StatementsException e) {
            err.println("onceproof report: " + e.getMessage());
            return INPUT_ERROR;
        }
    }

    private int report(Repo repo, List<FamilyStatements> all, PrintWriter out) {
        Path defaultResults = repo.root().resolve("target/onceproof/last-results.json");
        LastResults results;
        if (resultsFile != null) {
            if (!Files.isRegularFile(resultsFile)) {
                throw new StatementsException(resultsFile, "no such results file (./onceproof verify writes "
                        + repo.root().relativize(defaultResults) + ")");
            }
            results = LastResults.read(resultsFile);
        } else {
            results = Files.isRegularFile(defaultResults) ? LastResults.read(defaultResults) : LastResults.none();
        }
        ProofMap map = new ProofMap(repo, repo.manifest(), results, new CurrentInputs(repo));
        List<FamilyResult> families = all.stream().map(map::family).toList();
        Path dir = (this.out != null ? this.out : repo.root().resolve("target/onceproof/report")).toAbsolutePath().normalize();
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("index.html"), HtmlReport.render(repo, dir, families, results));
            Files.writeString(dir.resolve("proof-map.md"), MarkdownReport.render(families, results));
        } catch (IOException e) {
            throw new StatementsException(dir, "cannot be written: " + e);
        }
        out.println("results: " + Summary.results(results));
        out.printf("%-12s %10s %8s %10s %12s %7s %6s %8s%n", "family", "statements", "flagged", "uncovered",
                "cannot fail", "failed", "stale", "not run");
        for (FamilyResult f : families) {
            out.printf("%-12s %10d %8d %10d %12d %7d %6d %8d%n", f.statements().family(), f.rows().size(), f.flagged(),
                    f.with(Flag.UNCOVERED), f.with(Flag.CANNOT_FAIL), f.with(Flag.FAILED), f.with(Flag.STALE),
                    f.with(Flag.NOT_RUN));
        }
        for (Flag flag : List.of(Flag.UNCOVERED, Flag.FAILED)) {
            List<String> ids = Summary.carrying(families, flag);
            if (!ids.isEmpty()) {
                out.println(flag.label + ": " + String.join(", ", ids));
            }
        }
        out.println("wrote " + dir.resolve("index.html") + " and " + dir.resolve("proof-map.md"));
        boolean bad = families.stream().anyMatch(f -> f.with(Flag.UNCOVERED) + f.with(Flag.FAILED) > 0);
        return strict && bad ? 1 : 0;
    }
}
