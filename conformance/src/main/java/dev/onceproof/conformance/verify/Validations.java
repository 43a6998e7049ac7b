package dev.onceproof.conformance.verify;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.TlcJobs;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.validate.EoS3Run;
import dev.onceproof.conformance.validate.CausalUdpRun;
import dev.onceproof.conformance.validate.HybridRun;
import dev.onceproof.conformance.validate.RpcUdpRun;
import dev.onceproof.conformance.validate.StepLogException;
import dev.onceproof.conformance.validate.StoredLogs;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpFilterRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Verify's trace validation (DESIGN.md, link 5; README, "Trace validation"): for each family that
 * has it, TLC checks that the stored regression logs (conformance/src/test/resources/validate/) and
 * the logs of short real runs made on the spot are behaviours of their specs. One
 * {@link VerifyResults.Validation} per run; a rejection is a failure whose text is the rejection
 * report. The logs are short, so TLC runs as a small model ({@link TraceValidator#quick()}).
 */
public final class Validations {

    /** A real run made on the spot: its step logs, one per process. */
    public interface FreshRun {
        /** What the run is, with its seed: the result's name. */
        String name(long seed);

        List<Path> make(Path dir, long seed) throws Exception;
    }

    /**
     * What one family validates.
     *
     * @param stored the folders under validate/ whose runs are validated (StoredLogs.runs)
     * @param fresh  the runs made on the spot
     */
    public record Plan(List<String> stored, List<FreshRun> fresh) {
    }

    /** Where fresh runs leave their logs (overwritten by the next run), to read after a rejection. */
    public static final String FRESH_LOGS = "target/onceproof/validate";

    /** An estimate for the shard split: a TLC run's start and parse, and its lines at this rate. */
    static final double START_SECONDS = 1.5;
    static final double LINES_PER_SECOND = 100;
    /** A fresh run: making it (the UDP run sleeps about half a second) and validating it. */
    static final double FRESH_SECONDS = 3.0;

    /** The families with trace validation, by manifest family (the hybrid's logs are rpc's). */
    public static Map<String, Plan> standard() {
        Map<String, Plan> plans = new LinkedHashMap<>();
        plans.put("scmp", new Plan(List.of("scmp"), List.of(new FreshRun() {
            @Override
            public String name(long seed) {
                return "fresh: ConcurrentScmpFilter seeded world, " + ScmpFilterRun.mode(scheme(seed)) + ", seed " + seed;
            }

            @Override
            public List<Path> make(Path dir, long seed) {
                return List.of(ScmpFilterRun.run(dir.resolve("scmp.jsonl"), scheme(seed), seed, 60, "NONE"));
            }
        })));
        plans.put("rpc", new Plan(List.of("rpc", "hybrid"), List.of(new FreshRun() {
            @Override
            public String name(long seed) {
                return "fresh: RPC UDP server and two clients on loopback";
            }

            @Override
            public List<Path> make(Path dir, long seed) throws Exception {
                return RpcUdpRun.run(dir, 2);
            }
        }, new FreshRun() {
            @Override
            public String name(long seed) {
                return "fresh: hybrid seeded world (ConcurrentHybridServer, two clients), seed " + seed;
            }

            @Override
            public List<Path> make(Path dir, long seed) {
                return HybridRun.run(dir, seed, 300, HybridRun.realCore());
            }
        })));
        plans.put("exactlyonce", new Plan(List.of("exactlyonce"), List.of(new FreshRun() {
            @Override
            public String name(long seed) {
                return "fresh: Strategy 3 seeded world (two ConcurrentS3Servers, the client), seed " + seed;
            }

            @Override
            public List<Path> make(Path dir, long seed) {
                return List.of(EoS3Run.run(dir, seed, 120, c -> c));
            }
        }, new FreshRun() {
            @Override
            public String name(long seed) {
                return "fresh: Strategy 1 seeded world (two S1Servers, the client), seed " + seed;
            }

            @Override
            public List<Path> make(Path dir, long seed) {
                return List.of(dev.onceproof.conformance.validate.EoS1Run.run(dir, seed, 120));
            }
        })));
        plans.put("causal", new Plan(List.of("causal"), List.of(new FreshRun() {
            @Override
            public String name(long seed) {
                return "fresh: causal group of three CausalUdpNodes on loopback, 5% loss, seed " + seed;
            }

            @Override
            public List<Path> make(Path dir, long seed) throws Exception {
                return CausalUdpRun.run(dir, 24, 0.05, seed);
            }
        }, new FreshRun() {
            @Override
            public String name(long seed) {
                return "fresh: view change over UDP (three CausalUdpNodes, 5% loss and 5% duplication), n3 "
                        + (seed % 2 == 0 ? "crashed" : "suspected falsely") + ", seed " + seed;
            }

            @Override
            public List<Path> make(Path dir, long seed) throws Exception {
                return CausalUdpRun.viewChange(dir, seed % 2 == 0, seed);
            }
        })));
        return plans;
    }

    private static RecoveryScheme scheme(long seed) {
        return RecoveryScheme.values()[(int) Math.floorMod(seed, RecoveryScheme.values().length)];
    }

    /** What the phase found: one result per run, and the failures to add to verify's. */
    public record Outcome(List<VerifyResults.Validation> validations, List<String> failures) {
    }

    /** One run to validate: stored (in validate/FOLDER) or fresh. */
    private record Job(String family, String folder, List<Path> stored, FreshRun fresh, long seed, int index) {
        /** A fresh run's name; a stored run's file, or its folder when it is a run of several logs. */
        String name(Repo repo) {
            if (fresh != null) {
                return fresh.name(seed);
            }
            Path parent = stored.get(0).toAbsolutePath().normalize().getParent();
            boolean alone = parent.equals(StoredLogs.dir(repo, folder).toAbsolutePath().normalize());
            Path p = alone ? stored.get(0).toAbsolutePath().normalize() : parent;
            return repo.root().toAbsolutePath().normalize().relativize(p).toString().replace('\\', '/');
        }
    }

    private final Repo repo;
    private final TraceValidator validator;
    private final Map<String, Plan> plans;
    private final PrintWriter out;

    public Validations(Repo repo, TlcRunner runner, Duration timeout, PrintWriter out) {
        this(repo, runner, timeout, out, standard());
    }

    /** With other plans: a test's broken run, to show verify reports a rejection. */
    public Validations(Repo repo, TlcRunner runner, Duration timeout, PrintWriter out, Map<String, Plan> plans) {
        this.repo = repo;
        this.validator = new TraceValidator(repo.specs(), runner, timeout).quick();
        this.plans = plans;
        this.out = out;
    }

    public static boolean has(String family) {
        return standard().containsKey(family);
    }

    /** Validates the stored and fresh runs of these families, {@code jobs} TLC runs side by side. */
    public Outcome run(List<String> families, long seedBase, int jobs) {
        List<Job> all = new ArrayList<>();
        for (String f : families) {
            Plan plan = plans.get(f);
            if (plan == null) {
                continue;
            }
            for (String folder : plan.stored()) {
                if (!Files.isDirectory(StoredLogs.dir(repo, folder))) {
                    // A repository without the test resources (a copy of the specs and sources): said, not hidden.
                    out.println("validate/" + f + ": no stored logs: " + StoredLogs.dir(repo, folder) + " is missing");
                    continue;
                }
                for (List<Path> run : StoredLogs.runs(StoredLogs.dir(repo, folder))) {
                    all.add(new Job(f, folder, run, null, 0, all.size()));
                }
            }
            for (FreshRun r : plan.fresh()) {
                all.add(new Job(f, null, null, r, seedBase + all.size(), all.size()));
            }
        }
        out.println("Validating " + all.size() + " runs' step logs against their specs (stored and made now), "
                + jobs + (jobs == 1 ? " at a time:" : " side by side:"));
        out.flush();
        long started = System.nanoTime();
        List<VerifyResults.Validation> results = TlcJobs.map(all, jobs, this::validate, (i, v) -> {
            out.println("validate/" + v.family() + ": " + v.name() + ": " + (v.status().equals("ok") ? "ACCEPTED, "
                    + v.lines() + " lines, " + v.states() + " distinct states, " + String.format("%.1fs", v.seconds())
                    : v.status().toUpperCase(java.util.Locale.ROOT) + "\n  " + String.valueOf(v.report())
                    .strip().replace("\n", "\n  ")));
            out.flush();
        });
        out.println(String.format(java.util.Locale.ROOT, "Validations: %d of %d accepted, %.1f s wall",
                results.stream().filter(v -> v.status().equals("ok")).count(), results.size(),
                (System.nanoTime() - started) / 1e9));
        out.flush();
        List<String> failures = new ArrayList<>();
        for (VerifyResults.Validation v : results) {
            if (!v.status().equals("ok")) {
                failures.add("validation " + v.name() + ": " + v.status() + "\n" + v.report().strip());
            }
        }
        return new Outcome(results, failures);
    }

    private VerifyResults.Validation validate(Job job) {
        String name = job.name(repo);
        long t = System.nanoTime();
        List<Path> logs = job.stored();
        String where = "";
        try {
            if (job.fresh() != null) {
                Path dir = repo.root().resolve(FRESH_LOGS).resolve(job.family() + "-" + job.index());
                deleteQuietly(dir);
                Files.createDirectories(dir);
                logs = job.fresh().make(dir, job.seed());
                where = "\nthe run's logs: " + repo.root().relativize(dir);
            }
            Validation v = validator.validate(logs);
            return new VerifyResults.Validation(name, job.family(), v.spec(), job.fresh() != null ? "fresh" : "stored",
                    v.accepted() ? "ok" : v.rejection() != null ? "rejected" : "error", v.lines(), v.states(),
                    v.wallTime().toMillis() / 1000.0, v.accepted() ? null : v.report() + where, null);
        } catch (StepLogException | UncheckedIOException e) {
            return error(job, name, t, e.getMessage() + where);
        } catch (Exception e) {
            return error(job, name, t, (job.fresh() != null ? "the run could not be made: " : "") + e + where);
        }
    }

    private static VerifyResults.Validation error(Job job, String name, long t, String why) {
        return new VerifyResults.Validation(name, job.family(), null, job.fresh() != null ? "fresh" : "stored",
                "error", 0, 0, (System.nanoTime() - t) / 1e9, why, null);
    }

    /** The runs of a family whose validation did not run, as results that say why. */
    public static List<VerifyResults.Validation> skipped(Repo repo, String family, String why) {
        List<VerifyResults.Validation> out = new ArrayList<>();
        Plan plan = standard().get(family);
        if (plan == null) {
            return out;
        }
        for (String folder : plan.stored()) {
            if (!Files.isDirectory(StoredLogs.dir(repo, folder))) {
                continue;
            }
            for (List<Path> run : StoredLogs.runs(StoredLogs.dir(repo, folder))) {
                out.add(new VerifyResults.Validation(new Job(family, folder, run, null, 0, 0).name(repo), family, null,
                        "stored", "skipped", 0, 0, 0, null, "not checked: " + why));
            }
        }
        for (FreshRun r : plan.fresh()) {
            out.add(new VerifyResults.Validation(r.name(0).replaceAll(", seed 0$", ""), family, null, "fresh",
                    "skipped", 0, 0, 0, null, "not run: " + why));
        }
        return out;
    }

    /**
     * The expected seconds of a family's validation, for the shard split: each stored run at its
     * lines (a TLC start plus {@value #LINES_PER_SECOND} lines a second, the rate measured for logs
     * of a few hundred lines), each fresh run at {@value #FRESH_SECONDS} s.
     */
    public static double estimateSeconds(Repo repo, String family) {
        Plan plan = standard().get(family);
        if (plan == null) {
            return 0;
        }
        double s = plan.fresh().size() * FRESH_SECONDS;
        for (String folder : plan.stored()) {
            if (!Files.isDirectory(StoredLogs.dir(repo, folder))) {
                continue;
            }
            for (List<Path> run : StoredLogs.runs(StoredLogs.dir(repo, folder))) {
                long lines = 0;
                for (Path f : run) {
                    try (Stream<String> ls = Files.lines(f)) {
                        lines += ls.count();
                    } catch (IOException | UncheckedIOException e) {
                        // an unreadable log fails its validation quickly; its estimate does not matter
                    }
                }
                s += START_SECONDS + lines / LINES_PER_SECOND;
            }
        }
        return s;
    }

    private static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // the run writes its files anew
        }
    }
}
