package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.tlc.TextTable;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import dev.onceproof.conformance.manifest.ModelExpectation;
import dev.onceproof.conformance.tlc.CounterexampleTable;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code onceproof models list}: what the manifest holds. */
@Command(name = "models", mixinStandardHelpOptions = true, description = "Show the models of specs/manifest.json.",
        subcommands = {ModelsCommand.ListCommand.class, ModelsCommand.CheckCommand.class, ModelsTimeCommand.class})
public final class ModelsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List every model and trace entry.")
    static final class ListCommand implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        RepoOption repoOption = new RepoOption();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Manifest m = repoOption.repo().manifest();
            TextTable models = new TextTable("model", "mode", "expect", "distinct states", "depth", "module", "cfg", "why")
                    .alignRight(3, 4);
            for (ModelEntry e : m.models()) {
                models.row(e.name(), e.mode().name().toLowerCase(Locale.ROOT), e.expect(), e.distinctStates(), e.depth(),
                        e.module(), e.cfg(), e.why());
            }
            out.print(models.render());
            out.println();
            TextTable traces = new TextTable("trace", "kind", "seeds / trap", "depth", "cfg", "why");
            for (TraceEntry t : m.traces()) {
                traces.row(t.name(), t.kind().name().toLowerCase(Locale.ROOT),
                        t.kind() == TraceEntry.Kind.SIMULATE ? t.seeds().toString() : t.trap(),
                        t.kind() == TraceEntry.Kind.SIMULATE ? t.depth() : "", t.cfg(), t.why());
            }
            out.print(traces.render());
            out.flush();
            return 0;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Model-check the named models and show each result with its counterexample table"
                    + " (what a mutant's violation looks like, or what broke).")
    static final class CheckCommand implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        RepoOption repoOption = new RepoOption();

        @Parameters(arity = "1..*", paramLabel = "MODEL", description = "Model names from specs/manifest.json.")
        java.util.List<String> names;

        @Option(names = "--timeout", defaultValue = "1800", description = "Seconds per TLC run (default ${DEFAULT-VALUE}).")
        long timeout;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Repo repo = repoOption.repo();
            Manifest m = repo.manifest();
            int failed = 0;
            for (String name : names) {
                ModelEntry e = m.models().stream().filter(x -> x.name().equals(name)).findFirst()
                        .orElseThrow(() -> new ParameterException(spec.commandLine(), "no model \"" + name
                                + "\" in specs/manifest.json"));
                TlcResult r = new TlcRunner().run(ModelExpectation.request(repo, e, Duration.ofSeconds(timeout)));
                java.util.List<String> problems = ModelExpectation.problems(e, r);
                String counts = e.simulated()
                        // A simulation counts no distinct states: what it checked, and its settings.
                        ? String.format("%d states checked in a simulation of %d behaviours of depth up to %d,"
                                + " seed %d%s", r.statesGenerated(), e.simulate().behaviours(), e.simulate().depth(),
                                e.simulate().seed(), r.counterexample().isEmpty() ? ""
                                : ", violating behaviour of " + (r.counterexample().size() - 1) + " steps")
                        : String.format("%d distinct states, depth %d", r.distinctStates(), r.depth());
                out.printf("%s: %s, %s, %.1fs: %s%n", e.name(), r.summary(), counts,
                        r.wallTime().toMillis() / 1000.0,
                        problems.isEmpty() ? "as the manifest says" : String.join("; ", problems));
                if (!r.counterexample().isEmpty()) {
                    out.print(CounterexampleTable.render(r));
                }
                out.println();
                out.flush();
                failed += problems.isEmpty() ? 0 : 1;
            }
            return failed == 0 ? 0 : 1;
        }
    }
}
