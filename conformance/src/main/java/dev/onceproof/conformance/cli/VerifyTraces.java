package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.replay.FreshReplay;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.StoredTraces;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.conformance.tlc.TlcJobs;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.trace.GeneratedTrace;
import dev.onceproof.conformance.trace.StalenessCheck;
import dev.onceproof.conformance.trace.TraceGenerator;
import dev.onceproof.conformance.trace.TraceInputs;
import dev.onceproof.conformance.verify.TraceBudget;
import dev.onceproof.conformance.verify.VerifyResults;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Verify's trace work for the families whose models passed: which stored traces TLC must make again
 * (their header does not show them fresh), fresh simulations to replay, each TLC run within its
 * {@link TraceBudget}; then the byte comparison, the replay of stored and fresh traces on the cores,
 * and one {@link VerifyResults.Trace} per file. Runs after the models, so the verdict on the models
 * is printed before any of this starts.
 */
final class VerifyTraces {

    /** One TLC run of this phase: a stored trace made again, or a fresh simulation. */
    record Job(String family, StalenessCheck.Expected stored, TraceEntry entry, Long seed, Duration budget) {

        String label() {
            return stored != null ? stored.fileName() : entry.fileStem(seed) + ".jsonl";
        }
    }

    /** What a job gave: a trace, or the exception and whether it was cut short at its budget. */
    record Done(GeneratedTrace trace, RuntimeException error, long nanos, boolean cutShort) {
    }

    /** What the phase found. */
    record Outcome(List<VerifyResults.Trace> traces, List<String> failures, List<GeneratedTrace> forCoverage,
                   List<Job> jobs, List<Done> done, int problems) {
    }

    private final Repo repo;
    private final Manifest manifest;
    private final TlcRunner runner;
    private final TraceInputs inputs;
    private final TraceBudget budget;
    private final PrintWriter out;

    VerifyTraces(Repo repo, Manifest manifest, TlcRunner runner, TraceInputs inputs, TraceBudget budget,
                 PrintWriter out) {
        this.repo = repo;
        this.manifest = manifest;
        this.runner = runner;
        this.inputs = inputs;
        this.budget = budget;
        this.out = out;
    }

    Outcome run(List<String> families, boolean regenerateAll, long seedBase, int freshSeeds, int jobCount) {
        List<VerifyResults.Trace> traces = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        List<StalenessCheck.Plan> plans = new ArrayList<>();
        List<Job> jobs = new ArrayList<>();
        int problems = 0;
        for (String f : families) {
            try {
                StalenessCheck.Plan plan = StalenessCheck.plan(repo, manifest, f, inputs,
                        regenerateAll ? StalenessCheck.Mode.REGENERATE_ALL : StalenessCheck.Mode.BY_INPUTS);
                plans.add(plan);
                plan.regenerate().forEach(x -> jobs.add(new Job(f, x, x.entry(), x.seed(), budget.of(x.entry()))));
            } catch (RuntimeException e) {
                problems++;
                failures.add("traces/" + f + ": " + e.getMessage());
                out.println("traces/" + f + ": FAILED to read: " + VerifyCommand.firstLine(e));
                traces.add(new VerifyResults.Trace("traces/" + f, f, "stored", "error", 0, 0, null, e.getMessage(), null));
            }
        }
        for (TraceEntry sim : manifest.traces()) {
            if (families.contains(sim.family()) && sim.kind() == TraceEntry.Kind.SIMULATE) {
                for (long seed : FreshReplay.seeds(sim, seedBase, freshSeeds)) {
                    jobs.add(new Job(sim.family(), null, sim, seed, budget.of(sim)));
                }
            }
        }
        long stored = jobs.stream().filter(j -> j.stored() != null).count();
        out.println("Trace work for " + families.size() + " families: regenerating " + stored + " stored traces"
                + (regenerateAll ? "" : " whose header does not show them fresh") + ", making "
                + (jobs.size() - stored) + " fresh ones, each TLC run within its budget (max("
                + (int) TraceBudget.FLOOR_SECONDS + " s, " + (int) TraceBudget.FACTOR + " x its recorded seconds)"
                + (budget.fixedSeconds() != null ? "; here --trace-budget " + budget.fixedSeconds() + " s" : "") + "):");
        out.flush();
        List<Done> done = TlcJobs.map(jobs, jobCount, this::generate, (i, d) -> {
            if (d.cutShort()) {
                Job j = jobs.get(i);
                out.println("  cut short: " + j.label() + " (" + j.entry().name() + ") stopped at its "
                        + budget.describe(j.entry()));
                out.flush();
            }
        });

        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        List<GeneratedTrace> forCoverage = new ArrayList<>();
        for (StalenessCheck.Plan plan : plans) {
            problems += family(plan, jobs, done, replayer, traces, failures, forCoverage);
        }
        problems += fresh(families, jobs, done, replayer, traces, failures, seedBase, forCoverage);
        return new Outcome(traces, failures, forCoverage, jobs, done, problems);
    }

    private Done generate(Job j) {
        long t = System.nanoTime();
        try {
            GeneratedTrace g = new TraceGenerator(repo, runner, j.budget(), inputs).generate(j.entry(), j.seed());
            return new Done(g, null, System.nanoTime() - t, false);
        } catch (RuntimeException e) {
            long nanos = System.nanoTime() - t;
            // TLC is stopped at the budget, so a run that failed after the whole budget was cut short.
            return new Done(null, e, nanos, nanos >= j.budget().toNanos());
        }
    }

    /** One family's stored traces: freshness from the plan and the runs, then replay. Returns its problems. */
    private int family(StalenessCheck.Plan plan, List<Job> jobs, List<Done> done, TraceReplayer replayer,
                       List<VerifyResults.Trace> traces, List<String> failures, List<GeneratedTrace> forCoverage) {
        String f = plan.family();
        Path dir = repo.traces().resolve(f);
        Map<String, VerifyResults.Trace> byFile = new LinkedHashMap<>();
        List<GeneratedTrace> made = new ArrayList<>();
        List<String> cut = new ArrayList<>();
        int problems = 0;
        RuntimeException firstError = null;
        for (int i = 0; i < jobs.size(); i++) {
            Job j = jobs.get(i);
            if (j.stored() == null || !j.family().equals(f)) {
                continue;
            }
            Done d = done.get(i);
            String rel = rel(dir.resolve(j.label()));
            String hash = "sha256:" + inputs.hash(j.entry(), j.seed());
            double secs = d.nanos() / 1e9;
            if (d.error() != null) {
                firstError = firstError == null ? d.error() : firstError;
                String why = d.cutShort() ? "cut short: TLC stopped at its " + budget.describe(j.entry())
                        + "; the stored trace's freshness is unknown (run " + TraceGenerator.command(j.entry())
                        + " to make it without a budget)" : d.error().getMessage();
                if (d.cutShort()) {
                    cut.add(j.label());
                }
                byFile.put(rel, new VerifyResults.Trace(rel, f, "stored", "error", 0, secs, hash, why,
                        d.cutShort() ? "cut short" : null));
                problems++;
                failures.add("traces: " + rel + ": " + VerifyCommand.firstLine(why));
                continue;
            }
            made.add(d.trace());
            String old = read(dir.resolve(j.label()));
            String status = old != null && old.equals(d.trace().content()) ? "ok" : "stale";
            String why = old == null ? "missing: " + rel + " (run " + TraceGenerator.command(j.entry()) + ")"
                    : status.equals("stale") ? "stale: " + rel + " differs from a fresh generation at line "
                    + firstDifferentLine(old, d.trace().content()) + " (run " + TraceGenerator.command(j.entry())
                    + ")" : null;
            if (why != null) {
                problems++;
                failures.add("traces: " + why);
            }
            byFile.put(rel, new VerifyResults.Trace(rel, f, "stored", status, 0, secs, hash, why, null));
        }
        for (StalenessCheck.Expected x : plan.unchanged()) {
            String rel = rel(dir.resolve(x.fileName()));
            byFile.put(rel, new VerifyResults.Trace(rel, f, "stored", "ok", 0, 0, "sha256:" + inputs.hash(x.entry(),
                    x.seed()), null, null));
        }
        for (String extra : plan.extras()) {
            problems++;
            failures.add("traces: " + extra);
            String rel = extra.replaceFirst("^extra: (\\S+) .*$", "$1");
            byFile.put(rel, new VerifyResults.Trace(rel, f, "stored", "stale", 0, 0, null, extra, null));
        }
        if (firstError == null) {
            // Only a complete set of regenerated traces can be compared as a family (and read for coverage).
            StalenessCheck.Report report = StalenessCheck.compare(repo, plan, made);
            forCoverage.addAll(report.generated());
            forCoverage.addAll(report.unchanged());
            out.println("traces/" + f + ": " + report.unchanged().size() + " unchanged (inputs and digest as"
                    + " generated), " + report.generated().size() + " regenerated, "
                    + (report.fresh() ? "all fresh" : report.problems().size() + " stale, missing or extra"));
        } else {
            out.println("traces/" + f + ": FAILED to regenerate: " + VerifyCommand.firstLine(firstError)
                    + (cut.isEmpty() ? "" : "; cut short at their budget: " + String.join(", ", cut)));
        }
        int replayFailures = 0;
        for (Path p : StoredTraces.family(repo, f)) {
            long t = System.nanoTime();
            ReplayResult r = replayer.replay(p);
            double secs = (System.nanoTime() - t) / 1e9;
            String rel = rel(p);
            VerifyResults.Trace before = byFile.get(rel);
            String status = before == null ? "ok" : before.status();
            String mismatch = before == null ? null : before.mismatch();
            if (!r.passed()) {
                replayFailures++;
                problems++;
                failures.add("replay: " + r.report());
                status = status.equals("ok") ? "fail" : status;
                mismatch = mismatch == null ? r.report() : mismatch + "\n" + r.report();
            }
            byFile.put(rel, new VerifyResults.Trace(rel, f, "stored", status, r.steps(),
                    (before == null ? 0 : before.seconds()) + secs, before == null ? null : before.inputsHash(),
                    mismatch, before == null ? null : before.reason()));
        }
        int replayed = StoredTraces.family(repo, f).size();
        out.println("replay: traces/" + f + ": " + replayed + " stored traces, "
                + VerifyCommand.countFailed(replayed, replayFailures));
        out.flush();
        traces.addAll(byFile.values());
        return problems;
    }

    private int fresh(List<String> families, List<Job> jobs, List<Done> done, TraceReplayer replayer,
                      List<VerifyResults.Trace> traces, List<String> failures, long seedBase,
                      List<GeneratedTrace> forCoverage) {
        List<GeneratedTrace> made = new ArrayList<>();
        List<Job> madeBy = new ArrayList<>();
        List<Double> secs = new ArrayList<>();
        int problems = 0;
        int count = 0;
        for (int i = 0; i < jobs.size(); i++) {
            Job j = jobs.get(i);
            if (j.stored() != null) {
                continue;
            }
            count++;
            Done d = done.get(i);
            String hash = "sha256:" + inputs.hash(j.entry(), j.seed());
            if (d.error() != null) {
                problems++;
                String why = d.cutShort() ? "cut short: TLC stopped at its " + budget.describe(j.entry())
                        : d.error().getMessage();
                failures.add("fresh trace " + j.label() + " (--seed-base " + seedBase + "): " + VerifyCommand.firstLine(why));
                traces.add(new VerifyResults.Trace(j.label(), j.family(), "fresh", "error", 0, d.nanos() / 1e9, hash,
                        why, d.cutShort() ? "cut short" : null));
                continue;
            }
            made.add(d.trace());
            madeBy.add(j);
            secs.add(d.nanos() / 1e9);
        }
        List<ReplayResult> results = FreshReplay.replay(made, replayer, Path.of(System.getProperty("java.io.tmpdir")));
        int failed = 0;
        for (int i = 0; i < results.size(); i++) {
            ReplayResult r = results.get(i);
            Job j = madeBy.get(i);
            if (!r.passed()) {
                failed++;
                problems++;
                failures.add("replay (fresh, --seed-base " + seedBase + "): " + r.report());
            }
            traces.add(new VerifyResults.Trace(j.label(), j.family(), "fresh", r.passed() ? "ok" : "fail", r.steps(),
                    secs.get(i), "sha256:" + inputs.hash(j.entry(), j.seed()), r.passed() ? null : r.report(), null));
        }
        made.forEach(g -> forCoverage.add(new GeneratedTrace(g.family(), g.fileName(), "", Set.of(), g.specActions())));
        out.println("replay: " + results.size() + " of " + count + " fresh traces made (--seed-base " + seedBase + "), "
                + VerifyCommand.countFailed(results.size(), failed));
        out.flush();
        return problems;
    }

    private String rel(Path p) {
        return repo.root().relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    private static String read(Path p) {
        if (!Files.isRegularFile(p)) {
            return null;
        }
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }

    /** Line 1 is the header: a stale trace that differs only there was made from other inputs. */
    private static int firstDifferentLine(String a, String b) {
        String[] x = a.split("\n", -1);
        String[] y = b.split("\n", -1);
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (!x[i].equals(y[i])) {
                return i + 1;
            }
        }
        return Math.min(x.length, y.length) + 1;
    }

    static String seconds(double s) {
        return String.format(Locale.ROOT, "%.1f s", s);
    }
}
