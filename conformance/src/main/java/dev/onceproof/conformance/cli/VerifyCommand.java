package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.ModelExpectation;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.replay.FreshReplay;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.StoredTraces;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.conformance.tlc.CounterexampleTable;
import dev.onceproof.conformance.tlc.TextTable;
import dev.onceproof.conformance.tlc.TlcJobs;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.trace.GeneratedTrace;
import dev.onceproof.conformance.trace.StalenessCheck;
import dev.onceproof.conformance.trace.TraceGenerator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code onceproof verify}: the whole chain in one command. Model-checks the manifest's models and
 * compares outcome, distinct states and depth with it; checks that stored traces are what the specs
 * generate today; replays the stored traces and a freshly generated set on the Java cores. Exits
 * non-zero on any failure.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Model-check the manifest's models, check trace freshness, replay traces on the cores.")
public final class VerifyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repoOption = new RepoOption();

    @Option(names = "--mode", defaultValue = "ci", description = "ci or deep (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--all", description = "Every model, ci and deep.")
    boolean all;

    @Option(names = "--family", description = "Only this family.")
    String family;

    @Option(names = "--timeout", defaultValue = "1800", description = "Seconds per TLC run (default ${DEFAULT-VALUE}).")
    long timeout;

    @Option(names = "--fresh-seeds", defaultValue = "2",
            description = "New seeds per simulation entry to generate and replay (default ${DEFAULT-VALUE}).")
    int freshSeeds;

    @Option(names = "--seed-base", description = "Derive the fresh seeds from this (default: the clock; printed).")
    Long seedBase;

    @Option(names = "--models-only", description = "Skip the trace checks.")
    boolean modelsOnly;

    @Option(names = "--jobs", description = "TLC runs side by side (default: ONCEPROOF_TLC_JOBS, else the processors"
            + " this JVM sees). Each TLC has one worker, so the counts do not depend on it.")
    Integer jobs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        long started = System.nanoTime();
        if (!mode.equals("ci") && !mode.equals("deep")) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--mode is \"" + mode
                    + "\"; it must be ci or deep (or use --all)");
        }
        Repo repo = repoOption.repo();
        Manifest manifest = repo.manifest();
        TlcRunner runner = new TlcRunner();
        List<ModelEntry> models = manifest.models().stream()
                .filter(m -> all || m.mode().name().equalsIgnoreCase(mode))
                .filter(m -> family == null || m.family().equals(family))
                .collect(Collectors.toList());
        int jobCount = jobs != null ? jobs : TlcJobs.defaultJobs();
        out.println("Model-checking " + models.size() + " models (" + (all ? "all" : mode) + ", " + jobCount
                + (jobCount == 1 ? " TLC at a time" : " TLCs side by side, lines in the order they finish") + "):");
        out.flush();

        TextTable table = new TextTable("model", "mode", "expected", "outcome", "distinct states", "depth", "time",
                "status").alignRight(4, 5, 6);
        List<String> failures = new ArrayList<>();
        StringBuilder details = new StringBuilder();
        int[] finished = {0};
        List<TlcResult> results = TlcJobs.map(models, jobCount,
                m -> runner.run(ModelExpectation.request(repo, m, Duration.ofSeconds(timeout))),
                (i, r) -> {
                    ModelEntry m = models.get(i);
                    String status = ModelExpectation.problems(m, r).isEmpty() ? "ok" : "FAIL";
                    out.printf("[%d/%d] %s: %s, %d distinct states, depth %d, %s, %s%n", ++finished[0], models.size(),
                            m.name(), r.summary(), r.distinctStates(), r.depth(), seconds(r), status);
                    out.flush();
                });
        int modelFailures = 0;
        for (int i = 0; i < models.size(); i++) {
            ModelEntry m = models.get(i);
            TlcResult r = results.get(i);
            List<String> problems = ModelExpectation.problems(m, r);
            String status = problems.isEmpty() ? "ok" : "FAIL";
            table.row(m.name(), m.mode().name().toLowerCase(Locale.ROOT), m.expect(), r.summary(), r.distinctStates(),
                    r.depth(), seconds(r), status);
            if (!problems.isEmpty()) {
                modelFailures++;
                problems.forEach(p -> failures.add(m.name() + ": " + p));
                boolean unexpectedBehaviour = !r.verdict().equals(m.expect()) && !r.counterexample().isEmpty();
                if (unexpectedBehaviour) {
                    details.append('\n').append(m.name()).append(": ").append(CounterexampleTable.render(r));
                }
            }
        }

        int traceProblems = 0;
        int replayed = 0;
        int replayFailures = 0;
        if (!modelsOnly) {
            TraceGenerator generator = new TraceGenerator(repo, runner, Duration.ofSeconds(timeout));
            TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
            List<GeneratedTrace> generated = new ArrayList<>();
            for (String f : manifest.families()) {
                if (family != null && !family.equals(f)) {
                    continue;
                }
                StalenessCheck.Report report;
                try {
                    report = StalenessCheck.check(repo, manifest, f, generator);
                } catch (RuntimeException e) {
                    // A trace TLC cannot make (a trap never fires, a model error) fails this family only.
                    traceProblems++;
                    failures.add("traces/" + f + ": " + e.getMessage());
                    out.println("traces/" + f + ": FAILED to regenerate: " + e.getMessage().lines().findFirst().orElse(""));
                    out.flush();
                    continue;
                }
                generated.addAll(report.generated());
                traceProblems += report.problems().size();
                report.problems().forEach(p -> failures.add("traces: " + p));
                out.println("traces/" + f + ": " + report.generated().size() + " regenerated, "
                        + (report.fresh() ? "all byte-identical" : report.problems().size() + " stale, missing or extra"));
                out.flush();
            }
            List<Path> stored = family == null ? StoredTraces.all(repo) : StoredTraces.family(repo, family);
            for (Path p : stored) {
                ReplayResult r = replayer.replay(p);
                replayed++;
                if (!r.passed()) {
                    replayFailures++;
                    failures.add("replay: " + r.report());
                }
            }
            out.println("replay: " + stored.size() + " stored traces, " + countFailed(stored.size(), replayFailures));
            long base = seedBase != null ? seedBase : System.currentTimeMillis();
            List<TraceEntry> sims = manifest.traces().stream()
                    .filter(t -> family == null || t.family().equals(family))
                    .filter(t -> t.kind() == TraceEntry.Kind.SIMULATE).collect(Collectors.toList());
            List<ReplayResult> fresh = new ArrayList<>();
            for (TraceEntry sim : sims) {
                try {
                    fresh.addAll(FreshReplay.run(List.of(sim), generator, replayer, base, freshSeeds));
                } catch (RuntimeException e) {
                    failures.add("fresh traces of " + sim.name() + " (--seed-base " + base + "): " + e.getMessage());
                }
            }
            int freshFailed = 0;
            for (ReplayResult r : fresh) {
                replayed++;
                if (!r.passed()) {
                    freshFailed++;
                    failures.add("replay (fresh, --seed-base " + base + "): " + r.report());
                }
            }
            replayFailures += freshFailed;
            out.println("replay: " + fresh.size() + " fresh traces (--seed-base " + base + "), "
                    + countFailed(fresh.size(), freshFailed));
            TracesCommand.reportUncovered(out, generated);
        }

        out.println();
        out.print(table.render());
        out.print(details);
        if (!failures.isEmpty()) {
            out.println();
            out.println("Failures:");
            failures.forEach(f -> out.println("  " + f.replace("\n", "\n    ")));
        }
        out.println();
        boolean ok = failures.isEmpty();
        out.println((ok ? "OK" : "FAILED") + ": " + (models.size() - modelFailures) + "/" + models.size()
                + " models as the manifest says, " + (modelsOnly ? "traces not checked" : traceProblems
                + " stale/missing/extra traces, " + (replayed - replayFailures) + "/" + replayed + " traces replayed")
                + String.format(Locale.ROOT, " (%.0f s)", (System.nanoTime() - started) / 1e9));
        out.flush();
        return ok ? 0 : 1;
    }

    private static String seconds(TlcResult r) {
        return String.format(Locale.ROOT, "%.1fs", r.wallTime().toMillis() / 1000.0);
    }

    private static String countFailed(int total, int failed) {
        return failed == 0 ? "all agree with the cores" : failed + " of " + total + " FAILED";
    }
}
