package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ManifestSeconds;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.ModelExpectation;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.tlc.TlcJvm;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.trace.TraceGenerator;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code onceproof models time}: runs the selected models and trace entries one at a time and
 * writes each one's wall seconds into specs/manifest.json ({@code "seconds"}, the only field it
 * touches; see {@link ManifestSeconds}). Shards are balanced on these seconds and trace budgets
 * derived from them. A run that does not give what the manifest says is not recorded (its time says
 * nothing about the model), and is named.
 */
@Command(name = "time", mixinStandardHelpOptions = true,
        description = "Run models and trace entries one at a time and record their wall seconds in specs/manifest.json.")
final class ModelsTimeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repoOption = new RepoOption();

    @Option(names = "--family", description = "Only this family.")
    String family;

    @Option(names = "--mode", defaultValue = "ci", description = "ci, deep or all (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--models-only", description = "Time the models, not the trace entries.")
    boolean modelsOnly;

    @Option(names = "--traces-only", description = "Time the trace entries, not the models.")
    boolean tracesOnly;

    @Option(names = "--timeout", defaultValue = "3600", description = "Seconds per TLC run (default ${DEFAULT-VALUE}).")
    long timeout;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Repo repo = repoOption.repo();
        Manifest manifest = repo.manifest();
        if (family != null && !manifest.families().contains(family)) {
            err.println("onceproof models time: --family " + family + ": no such family in specs/manifest.json; the"
                    + " families are " + String.join(", ", manifest.families()));
            err.flush();
            return Main.INPUT_ERROR;
        }
        if (!List.of("ci", "deep", "all").contains(mode)) {
            err.println("onceproof models time: --mode is \"" + mode + "\"; it must be ci, deep or all");
            err.flush();
            return Main.INPUT_ERROR;
        }
        List<ModelEntry> models = tracesOnly ? List.of() : manifest.models().stream()
                .filter(m -> family == null || m.family().equals(family))
                .filter(m -> mode.equals("all") || m.mode().name().equalsIgnoreCase(mode)).toList();
        List<TraceEntry> traces = modelsOnly ? List.of() : manifest.traces().stream()
                .filter(t -> family == null || t.family().equals(family)).toList();
        // The same JVM settings as verify, so the seconds are what verify will see.
        TlcRunner runner = new TlcRunner(TlcJvm.standard().withSmallModels(ModelExpectation.smallModelCfgs(repo,
                models)));
        out.println("Timing " + models.size() + " models and " + traces.size() + " trace entries, one TLC at a time"
                + " (the machine's load is part of every figure: time on an otherwise idle machine):");
        out.flush();
        Map<ManifestSeconds.Key, Double> seconds = new LinkedHashMap<>();
        int skipped = 0;
        for (ModelEntry m : models) {
            TlcResult r = runner.run(ModelExpectation.request(repo, m, Duration.ofSeconds(timeout)));
            double s = r.wallTime().toMillis() / 1000.0;
            List<String> problems = ModelExpectation.problems(m, r);
            if (problems.isEmpty()) {
                record(repo, seconds, new ManifestSeconds.Key(ManifestSeconds.Section.MODELS, m.name()), s);
                out.printf(Locale.ROOT, "  %s: %.1f s%n", m.name(), s);
            } else {
                skipped++;
                out.printf(Locale.ROOT, "  %s: NOT RECORDED (%.1f s): %s%n", m.name(), s, String.join("; ", problems));
            }
            out.flush();
        }
        TraceGenerator generator = new TraceGenerator(repo, runner, Duration.ofSeconds(timeout));
        for (TraceEntry t : traces) {
            List<Long> seeds = t.kind() == TraceEntry.Kind.SIMULATE ? t.seeds() : java.util.Collections.singletonList(null);
            double longest = 0;
            String problem = null;
            for (Long seed : seeds) {
                long start = System.nanoTime();
                try {
                    generator.generate(t, seed);
                } catch (RuntimeException e) {
                    problem = VerifyCommand.firstLine(e);
                }
                longest = Math.max(longest, (System.nanoTime() - start) / 1e9);
            }
            if (problem == null) {
                record(repo, seconds, new ManifestSeconds.Key(ManifestSeconds.Section.TRACES, t.name()), longest);
                out.printf(Locale.ROOT, "  trace %s: %.1f s (longest of %d runs)%n", t.name(), longest, seeds.size());
            } else {
                skipped++;
                out.printf(Locale.ROOT, "  trace %s: NOT RECORDED: %s%n", t.name(), problem);
            }
            out.flush();
        }
        out.println("Recorded " + seconds.size() + " seconds in " + repo.root().relativize(repo.manifestFile())
                + (skipped > 0 ? "; " + skipped + " not recorded (above)" : ""));
        out.flush();
        return skipped == 0 ? 0 : 1;
    }

    /** Written at once: a long timing run that is stopped keeps what it measured. */
    private static void record(Repo repo, Map<ManifestSeconds.Key, Double> seconds, ManifestSeconds.Key key,
                               double s) {
        seconds.put(key, s);
        ManifestSeconds.write(repo.manifestFile(), Map.of(key, s));
    }
}
