package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.TextTable;
import dev.onceproof.conformance.verify.ResultsJson;
import dev.onceproof.conformance.verify.ResultsMerge;
import dev.onceproof.conformance.verify.VerifyResults;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code onceproof verify merge FILE...}: the shards' JSON results as one summary (table, failures,
 * exit code), and optionally as one JSON file and one JUnit report. A missing or doubled shard or
 * model fails the merge ({@link ResultsMerge}).
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Combine the JSON results of verify --shard I/N runs into one summary; fails when a shard or"
                + " a model is missing or doubled.")
final class VerifyMergeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repoOption = new RepoOption();

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "The shards' results (verify --shard I/N --json FILE).")
    List<Path> files;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the merged results here.")
    Path json;

    @Option(names = "--junit", paramLabel = "DIR", description = "Write the merged JUnit XML (DIR/TEST-onceproof.xml).")
    Path junit;

    @Option(names = "--strict-claims", description = "In the JUnit XML, a stale claim is a failure.")
    boolean strictClaims;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Map<Path, VerifyResults> shards = new LinkedHashMap<>();
        for (Path f : files) {
            try {
                shards.put(f, ResultsJson.read(f));
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("onceproof verify merge: " + e.getMessage());
                spec.commandLine().getErr().flush();
                return Main.INPUT_ERROR;
            }
        }
        VerifyResults merged = ResultsMerge.merge(shards, "verify merge " + String.join(" ",
                files.stream().map(Path::toString).toList()));
        TextTable table = new TextTable("model", "mode", "expected", "outcome", "distinct states", "depth", "time",
                "status").alignRight(4, 5, 6);
        for (VerifyResults.Model m : merged.models()) {
            table.row(m.name(), m.mode(), m.expect(), m.outcome(), m.distinctStates(), m.depth(),
                    String.format(Locale.ROOT, "%.1fs", m.seconds()), m.status().equals("ok") ? "ok" : "FAIL");
        }
        out.print(table.render());
        if (!merged.failures().isEmpty()) {
            out.println();
            out.println("Failures:");
            merged.failures().forEach(f -> out.println("  " + f.replace("\n", "\n    ")));
        }
        long modelsOk = merged.models().stream().filter(m -> m.status().equals("ok")).count();
        long tracesOk = merged.traces().stream().filter(t -> t.status().equals("ok")).count();
        long claimsOk = merged.claims().stream().filter(c -> c.status().equals("ok")).count();
        out.println();
        out.printf(Locale.ROOT, "%s: %d shards, %d/%d models as the manifest says, %d/%d traces ok, %s, %d/%d claims ok"
                        + " (longest shard %.0f s)%n", merged.ok() ? "OK" : "FAILED", shards.size(), modelsOk,
                merged.selection().size(), tracesOk, merged.traces().size(),
                VerifyCommand.validations(merged.validations()), claimsOk, merged.claims().size(),
                merged.seconds());
        Repo repo;
        try {
            repo = repoOption.repo(); // the merged results are the last results of this checkout, for report
        } catch (IllegalStateException e) {
            repo = null; // a merge job may run outside a checkout; it still has --json and --junit
        }
        if (json != null) {
            ResultsJson.write(json, merged);
            out.println("results: " + json);
        }
        if (junit != null) {
            out.println("JUnit XML: " + dev.onceproof.conformance.verify.JUnitReport.write(junit, merged, strictClaims));
        }
        if (repo != null) {
            ResultsJson.write(repo.root().resolve(ResultsJson.LAST_RESULTS), merged);
        }
        out.flush();
        return merged.ok() ? 0 : 1;
    }
}
