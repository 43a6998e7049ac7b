package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.trace.GeneratedTrace;
import dev.onceproof.conformance.trace.StalenessCheck;
import dev.onceproof.conformance.trace.TraceGenerator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code onceproof traces generate | check}. */
@Command(name = "traces", mixinStandardHelpOptions = true, description = "Generate or check the TLC traces under traces/.",
        subcommands = {TracesCommand.Generate.class, TracesCommand.Check.class})
public final class TracesCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static List<TraceEntry> select(CommandSpec spec, Manifest m, String family, String name) {
        List<TraceEntry> out = m.traces().stream()
                .filter(t -> family == null || t.family().equals(family))
                .filter(t -> name == null || t.name().equals(name))
                .collect(Collectors.toList());
        if (out.isEmpty() && (family != null || name != null)) {
            throw new ParameterException(spec.commandLine(), "no trace entry in specs/manifest.json matches"
                    + (family != null ? " --family " + family : "") + (name != null ? " --name " + name : ""));
        }
        return out;
    }

    static void reportUncovered(PrintWriter out, List<GeneratedTrace> traces) {
        for (Map.Entry<String, Set<String>> u : TraceGenerator.uncovered(traces).entrySet()) {
            out.println("note: no " + u.getKey() + " trace takes " + String.join(", ", u.getValue())
                    + " (the spec's ActionNames, else the actions of TLC's coverage report)");
        }
    }

    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = "Run TLC for each manifest trace entry and write traces/<family>/<name>[-seed<N>].jsonl.")
    static final class Generate implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        RepoOption repoOption = new RepoOption();

        @Option(names = "--family", description = "Only this family.")
        String family;

        @Option(names = "--name", description = "Only this trace entry.")
        String name;

        @Option(names = "--out", description = "Write under this directory instead of traces/.")
        Path outDir;

        @Option(names = "--timeout", defaultValue = "600", description = "Seconds per TLC run (default ${DEFAULT-VALUE}).")
        long timeout;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Repo repo = repoOption.repo();
            Manifest m = repo.manifest();
            TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofSeconds(timeout));
            List<GeneratedTrace> all = new ArrayList<>();
            for (TraceEntry e : select(spec, m, family, name)) {
                List<GeneratedTrace> made = g.generate(e);
                for (Path p : TraceGenerator.write(outDir != null ? outDir : repo.traces(), made)) {
                    out.println("wrote " + (outDir != null ? p : repo.root().relativize(p)));
                    out.flush();
                }
                all.addAll(made);
            }
            reportUncovered(out, all);
            out.flush();
            return 0;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Regenerate every trace into memory and compare byte for byte with traces/: stale, missing or"
                    + " extra files fail.",
                    "This is the thorough check: it runs TLC for every trace. ./onceproof verify regenerates only the"
                    + " traces whose header does not show them fresh (the hash of every input they were made from,"
                    + " and a digest of the file's own bytes); see --regenerate-traces there."})
    static final class Check implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        RepoOption repoOption = new RepoOption();

        @Option(names = "--family", description = "Only this family.")
        String family;

        @Option(names = "--timeout", defaultValue = "600", description = "Seconds per TLC run (default ${DEFAULT-VALUE}).")
        long timeout;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Repo repo = repoOption.repo();
            Manifest m = repo.manifest();
            TraceGenerator g = new TraceGenerator(repo, new TlcRunner(), Duration.ofSeconds(timeout));
            int problems = 0;
            for (String f : m.families()) {
                if (family != null && !family.equals(f)) {
                    continue;
                }
                StalenessCheck.Report r = StalenessCheck.check(repo, m, f, g);
                r.problems().forEach(out::println);
                out.println(f + ": " + r.generated().size() + " traces regenerated, "
                        + (r.fresh() ? "all fresh" : r.problems().size() + " problems"));
                out.flush();
                problems += r.problems().size();
            }
            return problems == 0 ? 0 : 1;
        }
    }
}
