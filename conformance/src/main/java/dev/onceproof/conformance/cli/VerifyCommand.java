package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.ModelExpectation;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.CounterexampleTable;
import dev.onceproof.conformance.tlc.Outcome;
import dev.onceproof.conformance.tlc.TlcRequest;
import dev.onceproof.conformance.tlc.TextTable;
import dev.onceproof.conformance.tlc.TlcJobs;
import dev.onceproof.conformance.tlc.TlcJvm;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.trace.TraceGenerator;
import dev.onceproof.conformance.verify.ClaimsReader;
import dev.onceproof.conformance.verify.ModelInputs;
import dev.onceproof.conformance.verify.Shards;
import dev.onceproof.conformance.verify.TraceBudget;
import dev.onceproof.conformance.verify.Validations;
import dev.onceproof.conformance.verify.VerifyResults;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code onceproof verify}: the whole chain in one command, in the order an engineer needs it:
 * <ol>
 * <li>the models: outcome, distinct states and depth against the manifest, each line as TLC
 *     finishes, then the verdict on the models and every unexpected counterexample table, before any
 *     trace work starts;</li>
 * <li>the traces of the families whose models all passed (a failing family's traces cannot change
 *     the verdict, so they are skipped unless {@code --keep-going}): stored traces TLC must make again,
 *     fresh simulations, each TLC run within its {@link TraceBudget}, then replay on the cores; and,
 *     for the families with trace validation, their stored step logs and short real runs made now
 *     checked against the specs ({@link Validations});</li>
 * <li>the evaluation claims of the committed bench results ({@link ClaimsReader}).</li>
 * </ol>
 * The results go to target/onceproof/last-results.json always, and to {@code --json} and
 * {@code --junit} when asked ({@link VerifyOutputs}). Exits non-zero on any failure.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, subcommands = VerifyMergeCommand.class,
        description = "Model-check the manifest's models, check trace freshness, replay traces on the cores,"
                + " report the committed evaluation claims.")
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

    @Option(names = "--keep-going", description = "Do the trace work of a family whose models fail too (by default"
            + " it is skipped: it cannot change the verdict).")
    boolean keepGoing;

    @Option(names = "--trace-budget", paramLabel = "SECONDS", description = "One budget for every trace TLC run"
            + " (default: max(10 s, 5 x the entry's recorded seconds), else --timeout).")
    Double traceBudget;

    @Option(names = "--shard", paramLabel = "I/N", description = "Run only shard I of N: models and families' trace"
            + " work split deterministically, balanced on the manifest's recorded seconds (see docs/ci.md).")
    String shard;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON here (they are"
            + " always written to target/onceproof/last-results.json).")
    java.nio.file.Path json;

    @Option(names = "--junit", paramLabel = "DIR", description = "Write JUnit XML (DIR/TEST-onceproof.xml): one"
            + " testcase per model, trace and claim.")
    java.nio.file.Path junit;

    @Option(names = "--strict-claims", description = "Fail on a stale evaluation claim (its bench's inputs changed"
            + " since it ran). By default a stale claim is listed but does not fail the run.")
    boolean strictClaims;

    @Option(names = "--budget", paramLabel = "SECONDS", description = "Let TLC search each model for at most this"
            + " long (for deep runs; TLC's -Dtlc2.TLC.stopAfter, one JVM per run). A model it stops is INCOMPLETE: its"
            + " states, depth and the actions never taken are printed, and it fails the run.")
    Long budget;

    @Option(names = "--checkpoints", paramLabel = "DIR", defaultValue = "target/onceproof/checkpoints",
            description = "Where the longest models (recorded >= " + CHECKPOINT_SECONDS + " s, or longer than --budget)"
                    + " checkpoint, and recover from on the next run of the same inputs (default ${DEFAULT-VALUE},"
                    + " under the repository).")
    java.nio.file.Path checkpoints;

    /** A model whose recorded seconds reach this runs checkpointed: a killed CI job loses less. */
    static final int CHECKPOINT_SECONDS = 300;

    @Option(names = "--profile", description = "Also print every TLC run with its wall time, slowest first.")
    boolean profile;

    /** A model run: its result or the exception it threw. */
    private record Done(TlcResult result, RuntimeException error, long nanos) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        long started = System.nanoTime();
        String startedAt = Instant.now().toString();
        if (budget != null && budget < 1) {
            return usage(err, "--budget is " + budget + "; TLC stops after whole seconds, so it must be at least 1");
        }
        if (!mode.equals("ci") && !mode.equals("deep")) {
            return usage(err, "--mode is \"" + mode + "\"; it must be ci or deep (or use --all)");
        }
        Repo repo = repoOption.repo();
        Manifest manifest = repo.manifest();
        if (family != null && !manifest.families().contains(family)) {
            // A misspelled family must not pass CI as "0/0 models".
            return usage(err, "--family " + family + ": no such family in specs/manifest.json; the families are "
                    + String.join(", ", manifest.families()));
        }
        Shards.Spec shardSpec;
        try {
            shardSpec = shard == null ? null : Shards.Spec.parse(shard);
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        }
        List<ModelEntry> models = manifest.models().stream()
                .filter(m -> all || m.mode().name().equalsIgnoreCase(mode))
                .filter(m -> family == null || m.family().equals(family))
                .collect(Collectors.toList());
        List<String> selection = models.stream().map(ModelEntry::name).toList();
        List<String> traceFamilies = modelsOnly ? List.of() : manifest.families().stream()
                .filter(f -> family == null || f.equals(family)).collect(Collectors.toList());
        boolean withClaims = true;
        if (shardSpec != null) {
            VerifyShard.Selection sel = VerifyShard.select(repo, manifest, models, traceFamilies, freshSeeds, shardSpec);
            out.print(sel.description());
            models = sel.models();
            traceFamilies = sel.traceFamilies();
            withClaims = shardSpec.index() == 1; // claims only hash files: one shard reports them
        }
        TlcRunner runner = new TlcRunner(TlcJvm.standard().withSmallModels(ModelExpectation.smallModelCfgs(repo,
                models)));
        int jobCount = jobs != null ? jobs : TlcJobs.defaultJobs();
        TraceGenerator generator = new TraceGenerator(repo, runner, Duration.ofSeconds(timeout));
        ModelInputs modelInputs = new ModelInputs(repo, generator.inputs());
        long base = seedBase != null ? seedBase : System.currentTimeMillis();
        List<String> failures = new ArrayList<>();

        // 1. The models, longest first so both cores stay busy to the end.
        out.println("Model-checking " + models.size() + " models (" + (all ? "all" : mode) + ")"
                + (shardSpec != null ? ", shard " + shardSpec : "") + ", " + jobCount
                + (jobCount == 1 ? " TLC at a time" : " TLCs side by side, lines in the order they finish") + ":");
        out.flush();
        List<ModelEntry> byCost = new ArrayList<>(models);
        byCost.sort(Comparator.comparingDouble(ModelExpectation.expectedSeconds(repo, manifest)).reversed());
        int[] finished = {0};
        int total = models.size();
        long poolStart = System.nanoTime();
        List<Done> doneByCost = TlcJobs.map(byCost, jobCount, m -> run(m, repo, runner), (i, d) -> {
            ModelEntry m = byCost.get(i);
            finished[0]++;
            if (d.error() != null) {
                out.printf("[%d/%d] %s: FAILED to run: %s%n", finished[0], total, m.name(), firstLine(d.error()));
            } else {
                TlcResult r = d.result();
                out.printf("[%d/%d] %s: %s, %d distinct states, depth %d, %s, %s%n", finished[0], total, m.name(),
                        r.summary(), r.distinctStates(), r.depth(), seconds(r), r.outcome() == Outcome.INCOMPLETE
                                ? "INCOMPLETE" : ModelExpectation.problems(m, r).isEmpty() ? "ok" : "FAIL");
            }
            out.flush();
        });
        long modelNanos = System.nanoTime() - poolStart;

        TextTable table = new TextTable("model", "mode", "expected", "outcome", "distinct states", "depth", "time",
                "status").alignRight(4, 5, 6);
        List<VerifyResults.Model> modelResults = new ArrayList<>();
        StringBuilder details = new StringBuilder();
        Set<String> failingFamilies = new TreeSet<>();
        for (ModelEntry m : models) {
            Done d = doneByCost.get(byCost.indexOf(m));
            VerifyResults.Model res = modelResult(m, d, modelInputs);
            modelResults.add(res);
            if (d.error() != null) {
                table.row(m.name(), res.mode(), m.expect(), "error", "", "", "", "FAIL");
            } else {
                table.row(m.name(), res.mode(), m.expect(), d.result().summary(), d.result().distinctStates(),
                        d.result().depth(), seconds(d.result()), res.status().equals("ok") ? "ok"
                                : res.status().equals("incomplete") ? "INCOMPLETE" : "FAIL");
            }
            if (!res.status().equals("ok")) {
                failingFamilies.add(m.family());
                res.problems().forEach(p -> failures.add(m.name() + ": " + p));
                details.append('\n');
                res.problems().forEach(p -> details.append(m.name()).append(": ").append(p).append('\n'));
                if (res.counterexample() != null) {
                    details.append(m.name()).append(": ").append(res.counterexample());
                }
            }
        }
        long modelFailures = modelResults.stream().filter(r -> !r.status().equals("ok")).count();
        // The verdict on the models, with the counterexamples, before any trace work starts.
        out.print(details);
        out.println((modelFailures == 0 ? "Models: OK: " : "Models: FAILED: ") + (total - modelFailures) + "/" + total
                + " as the manifest says" + (incompleteCount(modelResults) > 0 ? ", " + incompleteCount(modelResults)
                + " INCOMPLETE at the --budget" : "") + (failingFamilies.isEmpty() ? ""
                : " (failing: " + String.join(", ", failingFamilies) + ")"));
        out.flush();

        // 2. The traces of the families whose models passed.
        List<VerifyResults.Trace> traceResults = new ArrayList<>();
        VerifyTraces.Outcome traceOutcome = null;
        if (!traceFamilies.isEmpty()) {
            List<String> run = new ArrayList<>();
            for (String f : traceFamilies) {
                if (failingFamilies.contains(f) && !keepGoing) {
                    out.println("traces/" + f + ": skipped: " + f + "'s models fail, so no trace can change the"
                            + " verdict (--keep-going checks them anyway)");
                    traceResults.addAll(VerifyShard.skipped(repo, f, f + "'s models fail"));
                } else {
                    run.add(f);
                }
            }
            if (!run.isEmpty()) {
                traceOutcome = new VerifyTraces(repo, manifest, runner, generator.inputs(),
                        new TraceBudget(traceBudget, Duration.ofSeconds(timeout)), out)
                        .run(run, regenerateTraces, base, freshSeeds, jobCount);
                traceResults.addAll(traceOutcome.traces());
                failures.addAll(traceOutcome.failures());
                TracesCommand.reportUncovered(out, traceOutcome.forCoverage());
            }
        }

        // 2b. Trace validation of real runs, for the same families, under the same rule.
        List<VerifyResults.Validation> validationResults = new ArrayList<>();
        List<String> validate = new ArrayList<>();
        for (String f : traceFamilies.stream().filter(Validations::has).toList()) {
            if (failingFamilies.contains(f) && !keepGoing) {
                out.println("validate/" + f + ": skipped: " + f + "'s models fail (--keep-going checks them anyway)");
                validationResults.addAll(Validations.skipped(repo, f, f + "'s models fail"));
            } else {
                validate.add(f);
            }
        }
        if (!validate.isEmpty()) {
            Validations.Outcome vo = new Validations(repo, runner, Duration.ofSeconds(timeout), out)
                    .run(validate, base, jobCount);
            validationResults.addAll(vo.validations());
            failures.addAll(vo.failures());
        }

        // 3. The committed evaluation claims.
        List<VerifyResults.Claim> claims = withClaims ? ClaimsReader.read(repo, family) : List.of();
        VerifyOutputs.reportClaims(out, claims, strictClaims, failures);

        out.println();
        out.print(table.render());
        if (profile) {
            out.println();
            out.print(profileTable(modelResults, traceOutcome, modelNanos, jobCount));
            out.println(runner.jvm().describe());
        }
        if (!failures.isEmpty()) {
            out.println();
            out.println("Failures:");
            failures.forEach(f -> out.println("  " + f.replace("\n", "\n    ")));
        }
        out.println();
        boolean ok = failures.isEmpty();
        long traceProblems = traceResults.stream().filter(t -> !t.status().equals("ok")
                && !t.status().equals("skipped")).count();
        long traceSkipped = traceResults.stream().filter(t -> t.status().equals("skipped")).count();
        double secs = (System.nanoTime() - started) / 1e9;
        out.println((ok ? "OK" : "FAILED") + ": " + (total - modelFailures) + "/" + total
                + " models as the manifest says, " + (modelsOnly ? "traces not checked" : (traceResults.size()
                - traceProblems - traceSkipped) + "/" + traceResults.size() + " traces ok"
                + (traceSkipped > 0 ? " (" + traceSkipped + " skipped)" : "") + ", " + validations(validationResults))
                + (withClaims ? ", " + claims.stream().filter(c -> c.status().equals("ok")).count() + "/"
                + claims.size() + " claims ok" : "") + String.format(Locale.ROOT, " (%.0f s)", secs));
        out.flush();
        VerifyResults results = new VerifyResults(VerifyResults.SCHEMA, VerifyOutputs.gitHead(repo), startedAt,
                Math.round(secs * 10) / 10.0, VerifyOutputs.commandLine(spec), shardSpec == null ? null
                : shardSpec.toString(), ok, modelResults, traceResults, claims, failures, selection,
                validationResults);
        VerifyOutputs.write(out, repo, results, json, junit, strictClaims);
        return ok ? 0 : 1;
    }

    /** "8/8 validations ok" for the summary line, with the skipped ones named as such. */
    static String validations(List<VerifyResults.Validation> vs) {
        long ok = vs.stream().filter(v -> v.status().equals("ok")).count();
        long skipped = vs.stream().filter(v -> v.status().equals("skipped")).count();
        return ok + "/" + vs.size() + " validations ok" + (skipped > 0 ? " (" + skipped + " skipped)" : "");
    }

    private int usage(PrintWriter err, String message) {
        err.println("onceproof verify: " + message);
        err.flush();
        return Main.INPUT_ERROR;
    }

    private Done run(ModelEntry m, Repo repo, TlcRunner runner) {
        long t = System.nanoTime();
        try {
            TlcRequest req = ModelExpectation.request(repo, m, Duration.ofSeconds(timeout));
            if (budget != null) {
                req = req.withBudget(Duration.ofSeconds(budget));
            }
            if (checkpointed(m)) {
                req = req.withCheckpoint(repo.root().resolve(checkpoints));
            }
            return new Done(runner.run(req), null, System.nanoTime() - t);
        } catch (RuntimeException e) {
            return new Done(null, e, System.nanoTime() - t);
        }
    }

    /**
     * The longest models checkpoint (and recover from the newest checkpoint of the same inputs): those
     * recorded at {@value #CHECKPOINT_SECONDS} s or more, and under --budget those that will not finish
     * within it (recorded longer, or never timed), so the next budgeted run goes on where this one stopped.
     */
    private boolean checkpointed(ModelEntry m) {
        if (m.seconds() != null && m.seconds() >= CHECKPOINT_SECONDS) {
            return true;
        }
        return budget != null && m.mode() == ModelEntry.Mode.DEEP && (m.seconds() == null || m.seconds() > budget);
    }

    private static VerifyResults.Model modelResult(ModelEntry m, Done d, ModelInputs inputs) {
        String mode = m.mode().name().toLowerCase(Locale.ROOT);
        String hash = inputs.hash(m);
        if (d.error() != null) {
            return new VerifyResults.Model(m.name(), m.family(), mode, m.module(), m.cfg(), m.expect(), "error", "error",
                    -1, -1, d.nanos() / 1e9, hash, null, List.of("TLC could not run: " + d.error().getMessage()),
                    List.of());
        }
        TlcResult r = d.result();
        if (r.outcome() == Outcome.INCOMPLETE) {
            // Not a pass and not a disagreement: how far it got, so the next budget can be chosen.
            return new VerifyResults.Model(m.name(), m.family(), mode, m.module(), m.cfg(), m.expect(), r.summary(),
                    "incomplete", r.distinctStates(), r.depth(), r.wallTime().toMillis() / 1000.0, hash, null,
                    List.of(incomplete(m, r)), r.untakenActions());
        }
        List<String> problems = ModelExpectation.problems(m, r);
        boolean unexpectedBehaviour = !r.verdict().equals(m.expect()) && !r.counterexample().isEmpty();
        return new VerifyResults.Model(m.name(), m.family(), mode, m.module(), m.cfg(), m.expect(), r.summary(),
                problems.isEmpty() ? "ok" : "fail", r.distinctStates(), r.depth(), r.wallTime().toMillis() / 1000.0,
                hash, unexpectedBehaviour ? CounterexampleTable.render(r) : null, problems, List.of());
    }

    private static long incompleteCount(List<VerifyResults.Model> models) {
        return models.stream().filter(r -> r.status().equals("incomplete")).count();
    }

    static String incomplete(ModelEntry m, TlcResult r) {
        return "INCOMPLETE (not a pass): TLC stopped at its --budget after " + r.distinctStates() + " distinct states"
                + (m.distinctStates() > 0 ? " (the manifest's full count is " + m.distinctStates() + ")" : "")
                + ", depth " + r.depth() + (r.untakenActions().isEmpty() ? "; every action was taken"
                : "; actions never taken: " + String.join(", ", r.untakenActions()));
    }

    private static String profileTable(List<VerifyResults.Model> models, VerifyTraces.Outcome traces, long modelNanos,
                                       int jobCount) {
        TextTable t = new TextTable("TLC run", "kind", "time").alignRight(2);
        record Row(String label, String kind, double seconds) {
        }
        List<Row> rows = new ArrayList<>();
        models.forEach(m -> rows.add(new Row(m.name(), "model", m.seconds())));
        if (traces != null) {
            for (int i = 0; i < traces.jobs().size(); i++) {
                VerifyTraces.Job j = traces.jobs().get(i);
                rows.add(new Row(j.label(), j.stored() != null ? "stored trace" : "fresh trace",
                        traces.done().get(i).nanos() / 1e9));
            }
        }
        rows.sort(Comparator.comparingDouble(Row::seconds).reversed());
        rows.forEach(r -> t.row(r.label(), r.kind(), String.format(Locale.ROOT, "%.1fs", r.seconds())));
        return String.format(Locale.ROOT, "Profile: %d TLC runs, the models' phase %.1f s wall with %d side by side"
                + " (sum of all runs %.1f s)%n", rows.size(), modelNanos / 1e9, jobCount,
                rows.stream().mapToDouble(Row::seconds).sum()) + t.render();
    }

    static String firstLine(RuntimeException e) {
        return firstLine(e.getMessage() == null ? e.toString() : e.getMessage());
    }

    static String firstLine(String msg) {
        return msg == null ? "" : msg.lines().findFirst().orElse("");
    }

    private static String seconds(TlcResult r) {
        return String.format(Locale.ROOT, "%.1fs", r.wallTime().toMillis() / 1000.0);
    }

    static String countFailed(int total, int failed) {
        return failed == 0 ? "all agree with the cores" : failed + " of " + total + " FAILED";
    }
}
