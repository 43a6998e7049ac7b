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
import dev.onceproof.conformance.tlc.TlcJvm;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.trace.GeneratedTrace;
import dev.onceproof.conformance.trace.StalenessCheck;
import dev.onceproof.conformance.trace.TraceGenerator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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

    @Option(names = "--fresh-seeds", defaultValue = "1",
            description = "New seeds per simulation entry to generate and replay (default ${DEFAULT-VALUE}: every"
                    + " run draws new seeds, so runs add up; more per run costs about 0.7 s each).")
    int freshSeeds;

    @Option(names = "--seed-base", description = "Derive the fresh seeds from this (default: the clock; printed).")
    Long seedBase;

    @Option(names = "--models-only", description = "Skip the trace checks.")
    boolean modelsOnly;

    @Option(names = "--jobs", description = "TLC runs side by side (default: ONCEPROOF_TLC_JOBS, else the processors"
            + " this JVM sees). Each TLC has one worker, so the counts do not depend on it.")
    Integer jobs;

    @Option(names = "--regenerate-traces", description = "Check trace freshness the thorough way, as ./onceproof"
            + " traces check does: regenerate every stored trace and compare bytes. By default only the traces whose"
            + " header does not show them fresh (inputs hash and digest) are regenerated.")
    boolean regenerateTraces;

    @Option(names = "--profile", description = "Also print every TLC run with its wall time, slowest first,"
            + " and the time each phase took.")
    boolean profile;

    /**
     * One TLC run of the pool: a model check, a stored trace made again because its header does not
     * show it fresh, or a fresh simulation to replay.
     */
    private record Job(Kind kind, String label, int model, StalenessCheck.Plan plan, TraceEntry entry, Long seed,
                       double estimate) {

        enum Kind { MODEL, STORED_TRACE, FRESH_TRACE }
    }

    /** What a job gave: a TlcResult or a GeneratedTrace, or the exception it threw. */
    private record Done(Object value, RuntimeException error, long nanos) {
    }

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
        List<ModelEntry> models = manifest.models().stream()
                .filter(m -> all || m.mode().name().equalsIgnoreCase(mode))
                .filter(m -> family == null || m.family().equals(family))
                .collect(Collectors.toList());
        TlcRunner runner = new TlcRunner(TlcJvm.standard().withSmallModels(ModelExpectation.smallModelCfgs(repo,
                models)));
        int jobCount = jobs != null ? jobs : TlcJobs.defaultJobs();
        TraceGenerator generator = new TraceGenerator(repo, runner, Duration.ofSeconds(timeout));
        long base = seedBase != null ? seedBase : System.currentTimeMillis();
        List<String> failures = new ArrayList<>();

        // Every TLC run of the command goes into one pool, longest first, so both cores stay busy to
        // the end instead of waiting at the end of each phase for its slowest run.
        List<Job> work = new ArrayList<>();
        for (int i = 0; i < models.size(); i++) {
            work.add(new Job(Job.Kind.MODEL, models.get(i).name(), i, null, null, null,
                    ModelExpectation.cost(repo, models.get(i))));
        }
        List<StalenessCheck.Plan> plans = new ArrayList<>();
        List<TraceEntry> sims = new ArrayList<>();
        int traceProblems = 0;
        if (!modelsOnly) {
            for (String f : manifest.families()) {
                if (family != null && !family.equals(f)) {
                    continue;
                }
                try {
                    StalenessCheck.Plan plan = StalenessCheck.plan(repo, manifest, f, generator.inputs(),
                            regenerateTraces ? StalenessCheck.Mode.REGENERATE_ALL : StalenessCheck.Mode.BY_INPUTS);
                    plans.add(plan);
                    for (StalenessCheck.Expected x : plan.regenerate()) {
                        work.add(new Job(Job.Kind.STORED_TRACE, x.fileName(), -1, plan, x.entry(), x.seed(),
                                TRACE_ESTIMATE));
                    }
                } catch (RuntimeException e) {
                    traceProblems++;
                    failures.add("traces/" + f + ": " + e.getMessage());
                    out.println("traces/" + f + ": FAILED to read: " + firstLine(e));
                }
            }
            manifest.traces().stream().filter(t -> family == null || t.family().equals(family))
                    .filter(t -> t.kind() == TraceEntry.Kind.SIMULATE).forEach(sims::add);
            for (TraceEntry sim : sims) {
                for (long seed : FreshReplay.seeds(sim, base, freshSeeds)) {
                    work.add(new Job(Job.Kind.FRESH_TRACE, sim.fileStem(seed) + ".jsonl", -1, null, sim, seed,
                            TRACE_ESTIMATE));
                }
            }
        }
        long storedRuns = work.stream().filter(j -> j.kind() == Job.Kind.STORED_TRACE).count();
        long freshRuns = work.stream().filter(j -> j.kind() == Job.Kind.FRESH_TRACE).count();
        out.println("Model-checking " + models.size() + " models (" + (all ? "all" : mode) + ")"
                + (modelsOnly ? "" : (regenerateTraces ? ", regenerating all " + storedRuns + " stored traces"
                : ", regenerating " + storedRuns + " stored traces whose header does not show them fresh")
                + ", making " + freshRuns + " fresh ones") + ", " + jobCount
                + (jobCount == 1 ? " TLC at a time" : " TLCs side by side, lines in the order they finish") + ":");
        out.flush();

        // Models longest first (by estimate), then the trace runs: each takes a couple of seconds, so
        // they fill the other core while the last models finish, whatever the estimates got wrong.
        List<Job> order = new ArrayList<>(work);
        order.sort(Comparator.comparing((Job j) -> j.kind() != Job.Kind.MODEL)
                .thenComparing(Comparator.comparingDouble(Job::estimate).reversed())); // stable: ties keep manifest order
        int[] finished = {0};
        long poolStart = System.nanoTime();
        List<Done> doneInOrder = TlcJobs.map(order, jobCount, j -> run(j, models, repo, runner, generator),
                (i, d) -> {
                    Job j = order.get(i);
                    if (j.kind() != Job.Kind.MODEL) {
                        return;
                    }
                    ModelEntry m = models.get(j.model());
                    finished[0]++;
                    if (d.error() != null) {
                        out.printf("[%d/%d] %s: FAILED to run: %s%n", finished[0], models.size(), m.name(),
                                firstLine(d.error()));
                    } else {
                        TlcResult r = (TlcResult) d.value();
                        String status = ModelExpectation.problems(m, r).isEmpty() ? "ok" : "FAIL";
                        out.printf("[%d/%d] %s: %s, %d distinct states, depth %d, %s, %s%n", finished[0],
                                models.size(), m.name(), r.summary(), r.distinctStates(), r.depth(), seconds(r), status);
                    }
                    out.flush();
                });
        long poolNanos = System.nanoTime() - poolStart;
        Map<Job, Done> done = new IdentityHashMap<>();
        for (int i = 0; i < order.size(); i++) {
            done.put(order.get(i), doneInOrder.get(i));
        }

        TextTable table = new TextTable("model", "mode", "expected", "outcome", "distinct states", "depth", "time",
                "status").alignRight(4, 5, 6);
        StringBuilder details = new StringBuilder();
        int modelFailures = 0;
        for (Job j : work) {
            if (j.kind() != Job.Kind.MODEL) {
                continue;
            }
            ModelEntry m = models.get(j.model());
            Done d = done.get(j);
            if (d.error() != null) {
                modelFailures++;
                table.row(m.name(), m.mode().name().toLowerCase(Locale.ROOT), m.expect(), "error", "", "", "", "FAIL");
                failures.add(m.name() + ": TLC could not run: " + d.error().getMessage());
                continue;
            }
            TlcResult r = (TlcResult) d.value();
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

        int replayed = 0;
        int replayFailures = 0;
        long storedReplayNanos = 0;
        long freshReplayNanos = 0;
        if (!modelsOnly) {
            TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
            List<GeneratedTrace> forCoverage = new ArrayList<>();
            for (StalenessCheck.Plan plan : plans) {
                List<GeneratedTrace> made = new ArrayList<>();
                RuntimeException error = null;
                for (Job j : work) {
                    if (j.plan() == plan) {
                        Done d = done.get(j);
                        if (d.error() != null && error == null) {
                            error = d.error();
                        }
                        made.add((GeneratedTrace) d.value());
                    }
                }
                String f = plan.family();
                if (error != null) {
                    // A trace TLC cannot make (a trap never fires, a model error) fails this family only.
                    traceProblems++;
                    failures.add("traces/" + f + ": " + error.getMessage());
                    out.println("traces/" + f + ": FAILED to regenerate: " + firstLine(error));
                    continue;
                }
                StalenessCheck.Report report = StalenessCheck.compare(repo, plan, made);
                forCoverage.addAll(report.generated());
                forCoverage.addAll(report.unchanged());
                traceProblems += report.problems().size();
                report.problems().forEach(p -> failures.add("traces: " + p));
                out.println("traces/" + f + ": " + report.unchanged().size() + " unchanged (inputs and digest as"
                        + " generated), " + report.generated().size() + " regenerated, "
                        + (report.fresh() ? "all fresh" : report.problems().size() + " stale, missing or extra"));
                out.flush();
            }
            long t = System.nanoTime();
            List<Path> stored = family == null ? StoredTraces.all(repo) : StoredTraces.family(repo, family);
            for (Path p : stored) {
                ReplayResult r = replayer.replay(p);
                replayed++;
                if (!r.passed()) {
                    replayFailures++;
                    failures.add("replay: " + r.report());
                }
            }
            storedReplayNanos = System.nanoTime() - t;
            out.println("replay: " + stored.size() + " stored traces, " + countFailed(stored.size(), replayFailures));

            List<GeneratedTrace> fresh = new ArrayList<>();
            for (TraceEntry sim : sims) {
                RuntimeException error = null;
                List<GeneratedTrace> made = new ArrayList<>();
                for (Job j : work) {
                    if (j.kind() == Job.Kind.FRESH_TRACE && j.entry() == sim) {
                        Done d = done.get(j);
                        if (d.error() != null && error == null) {
                            error = d.error();
                        }
                        made.add((GeneratedTrace) d.value());
                    }
                }
                if (error != null) {
                    failures.add("fresh traces of " + sim.name() + " (--seed-base " + base + "): " + error.getMessage());
                } else {
                    fresh.addAll(made);
                }
            }
            t = System.nanoTime();
            List<ReplayResult> freshResults = FreshReplay.replay(fresh, replayer,
                    Path.of(System.getProperty("java.io.tmpdir")));
            freshReplayNanos = System.nanoTime() - t;
            int freshFailed = 0;
            for (ReplayResult r : freshResults) {
                replayed++;
                if (!r.passed()) {
                    freshFailed++;
                    failures.add("replay (fresh, --seed-base " + base + "): " + r.report());
                }
            }
            replayFailures += freshFailed;
            out.println("replay: " + freshResults.size() + " fresh traces (--seed-base " + base + "), "
                    + countFailed(freshResults.size(), freshFailed));
            // Which actions the stored traces take; which actions the spec has, from every trace TLC made.
            fresh.forEach(g -> forCoverage.add(new GeneratedTrace(g.family(), g.fileName(), "", Set.of(),
                    g.specActions())));
            TracesCommand.reportUncovered(out, forCoverage);
        }

        out.println();
        out.print(table.render());
        out.print(details);
        if (profile) {
            out.println();
            out.print(profileTable(work, done, poolNanos, jobCount, storedReplayNanos, freshReplayNanos));
            out.println(runner.jvm().describe());
        }
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

    /** Trace runs are not ordered among themselves by size. */
    private static final double TRACE_ESTIMATE = 0;

    private Done run(Job j, List<ModelEntry> models, Repo repo, TlcRunner runner, TraceGenerator generator) {
        long t = System.nanoTime();
        try {
            Object value = switch (j.kind()) {
                case MODEL -> runner.run(ModelExpectation.request(repo, models.get(j.model()),
                        Duration.ofSeconds(timeout)));
                case STORED_TRACE, FRESH_TRACE -> generator.generate(j.entry(), j.seed());
            };
            return new Done(value, null, System.nanoTime() - t);
        } catch (RuntimeException e) {
            return new Done(null, e, System.nanoTime() - t);
        }
    }

    private static String profileTable(List<Job> work, Map<Job, Done> done, long poolNanos, int jobCount,
                                       long storedReplayNanos, long freshReplayNanos) {
        StringBuilder sb = new StringBuilder();
        double sum = work.stream().mapToLong(j -> done.get(j).nanos()).sum() / 1e9;
        sb.append(String.format(Locale.ROOT, "Profile: %d TLC runs in %.1f s wall with %d side by side"
                        + " (sum of their times %.1f s); replaying the stored traces %.1f s, the fresh ones %.1f s%n",
                work.size(), poolNanos / 1e9, jobCount, sum, storedReplayNanos / 1e9, freshReplayNanos / 1e9));
        for (Job.Kind k : Job.Kind.values()) {
            List<Job> of = work.stream().filter(j -> j.kind() == k).toList();
            sb.append(String.format(Locale.ROOT, "  %-13s %3d runs, %7.1f s%n", k.name().toLowerCase(Locale.ROOT)
                    .replace('_', ' '), of.size(), of.stream().mapToLong(j -> done.get(j).nanos()).sum() / 1e9));
        }
        TextTable t = new TextTable("TLC run", "kind", "time").alignRight(2);
        work.stream().sorted(Comparator.comparingLong((Job j) -> done.get(j).nanos()).reversed())
                .forEach(j -> t.row(j.label(), j.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '),
                        String.format(Locale.ROOT, "%.1fs", done.get(j).nanos() / 1e9)));
        sb.append(t.render());
        return sb.toString();
    }

    private static String firstLine(RuntimeException e) {
        String msg = e.getMessage() == null ? e.toString() : e.getMessage();
        return msg.lines().findFirst().orElse("");
    }

    private static String seconds(TlcResult r) {
        return String.format(Locale.ROOT, "%.1fs", r.wallTime().toMillis() / 1000.0);
    }

    private static String countFailed(int total, int failed) {
        return failed == 0 ? "all agree with the cores" : failed + " of " + total + " FAILED";
    }
}
