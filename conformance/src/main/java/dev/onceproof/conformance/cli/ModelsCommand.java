package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.tlc.TextTable;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code onceproof models list}: what the manifest holds. */
@Command(name = "models", mixinStandardHelpOptions = true, description = "Show the models of specs/manifest.json.",
        subcommands = ModelsCommand.ListCommand.class)
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
}
