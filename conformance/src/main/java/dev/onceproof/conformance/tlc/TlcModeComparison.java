package dev.onceproof.conformance.tlc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.ModelExpectation;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.trace.GeneratedTrace;
import dev.onceproof.conformance.trace.TraceGenerator;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures TLC forked against TLC in our JVM, side by side in one run: the same small ci models and
 * the same simulation trace generations, each batch run with the same number of jobs as verify,
 * the modes alternating (fork first in odd rounds, in-process first in even ones) so a change in
 * the machine's load hits both. It also checks the two give the same results (outcome, distinct
 * states, depth, the counterexample of a safety violation; every trace byte for byte), and that the
 * class loaders of many in-process runs are collected (heap and loaded classes after a full GC).
 *
 * <pre>
 * java -cp "conformance/target/classes:conformance/target/lib/*" \
 *   dev.onceproof.conformance.tlc.TlcModeComparison [models N] [sims N] [rounds R] [jobs J] [leak N] [out FILE]
 * </pre>
 */
public final class TlcModeComparison {

    private TlcModeComparison() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = new LinkedHashMap<>(Map.of("models", "20", "sims", "10", "rounds", "2",
                "jobs", Integer.toString(TlcJobs.defaultJobs()), "leak", "150", "out", ""));
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!opt.containsKey(args[i])) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; options: " + opt.keySet());
            }
            opt.put(args[i], args[i + 1]);
        }
        int jobs = Integer.parseInt(opt.get("jobs"));
        Repo repo = Repo.locate();
        Manifest manifest = repo.manifest();
        List<ModelEntry> ci = manifest.models().stream().filter(m -> m.mode() == ModelEntry.Mode.CI).toList();
        List<Path> smallCfgs = ModelExpectation.smallModelCfgs(repo, ci);
        List<ModelEntry> models = spread(ci.stream().filter(m -> smallCfgs.contains(repo.specs().resolve(m.cfg())))
                .toList(), Integer.parseInt(opt.get("models")));
        List<TraceEntry> sims = spread(manifest.traces().stream().filter(t -> t.kind() == TraceEntry.Kind.SIMULATE)
                .toList(), Integer.parseInt(opt.get("sims")));
        TlcJvm jvm = TlcJvm.standard().withSmallModels(smallCfgs);
        Map<TlcRunner.Mode, TlcRunner> runners = Map.of(TlcRunner.Mode.FORK, new TlcRunner(jvm, TlcRunner.Mode.FORK),
                TlcRunner.Mode.IN_PROCESS, new TlcRunner(jvm, TlcRunner.Mode.IN_PROCESS));

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("jobs", jobs);
        json.put("processors", Runtime.getRuntime().availableProcessors());
        json.put("jvm", System.getProperty("java.vm.version") + " " + ManagementFactory.getRuntimeMXBean().getInputArguments());
        json.put("models", models.stream().map(ModelEntry::name).toList());
        json.put("sims", sims.stream().map(TraceEntry::name).toList());
        List<Map<String, Object>> batches = new ArrayList<>();
        Map<TlcRunner.Mode, List<Double>> modelRuns = new LinkedHashMap<>();
        Map<TlcRunner.Mode, List<Double>> simRuns = new LinkedHashMap<>();
        Map<TlcRunner.Mode, List<Double>> modelBatch = new LinkedHashMap<>();
        Map<TlcRunner.Mode, List<Double>> simBatch = new LinkedHashMap<>();
        Map<TlcRunner.Mode, List<TlcResult>> lastModels = new LinkedHashMap<>();
        Map<TlcRunner.Mode, List<String>> lastTraces = new LinkedHashMap<>();
        int rounds = Integer.parseInt(opt.get("rounds"));
        for (int round = 1; round <= rounds; round++) {
            List<TlcRunner.Mode> order = round % 2 == 1 ? List.of(TlcRunner.Mode.FORK, TlcRunner.Mode.IN_PROCESS)
                    : List.of(TlcRunner.Mode.IN_PROCESS, TlcRunner.Mode.FORK);
            for (TlcRunner.Mode mode : order) {
                TlcRunner runner = runners.get(mode);
                double load = load();
                long t0 = System.nanoTime();
                List<TlcResult> rs = TlcJobs.map(models, jobs,
                        m -> runner.run(ModelExpectation.request(repo, m, Duration.ofMinutes(5))), (i, r) -> { });
                double modelSeconds = (System.nanoTime() - t0) / 1e9;
                TraceGenerator g = new TraceGenerator(repo, runner, Duration.ofMinutes(5));
                long t1 = System.nanoTime();
                List<double[]> simTimes = new ArrayList<>();
                List<String> traces = TlcJobs.map(sims, jobs, t -> {
                    long s = System.nanoTime();
                    GeneratedTrace tr = g.generate(t, t.seeds().get(0));
                    synchronized (simTimes) {
                        simTimes.add(new double[] {(System.nanoTime() - s) / 1e9});
                    }
                    return tr.content();
                }, (i, r) -> { });
                double simSeconds = (System.nanoTime() - t1) / 1e9;
                rs.forEach(r -> modelRuns.computeIfAbsent(mode, k -> new ArrayList<>()).add(r.wallTime().toMillis() / 1e3));
                simTimes.forEach(s -> simRuns.computeIfAbsent(mode, k -> new ArrayList<>()).add(s[0]));
                modelBatch.computeIfAbsent(mode, k -> new ArrayList<>()).add(modelSeconds);
                simBatch.computeIfAbsent(mode, k -> new ArrayList<>()).add(simSeconds);
                lastModels.put(mode, rs);
                lastTraces.put(mode, traces);
                Map<String, Object> b = new LinkedHashMap<>();
                b.put("round", round);
                b.put("mode", mode.name());
                b.put("load1Before", load);
                b.put("modelsSeconds", modelSeconds);
                b.put("simsSeconds", simSeconds);
                b.put("load1After", load());
                batches.add(b);
                System.out.printf(Locale.ROOT, "round %d %-10s models %6.1f s  sims %6.1f s  (load %.1f -> %.1f)%n",
                        round, mode, modelSeconds, simSeconds, load, load());
            }
        }
        json.put("batches", batches);

        List<String> differences = new ArrayList<>();
        for (int i = 0; i < models.size() && rounds > 0; i++) {
            TlcResult f = lastModels.get(TlcRunner.Mode.FORK).get(i);
            TlcResult p = lastModels.get(TlcRunner.Mode.IN_PROCESS).get(i);
            boolean temporal = f.outcome() == Outcome.TEMPORAL_PROPERTY_VIOLATED;
            if (f.outcome() != p.outcome() || f.distinctStates() != p.distinctStates() || f.depth() != p.depth()
                    || (!temporal && !f.counterexample().equals(p.counterexample()))) {
                differences.add(models.get(i).name() + ": forked " + f.summary() + " " + f.distinctStates() + "/"
                        + f.depth() + ", in-process " + p.summary() + " " + p.distinctStates() + "/" + p.depth());
            }
        }
        for (int i = 0; i < sims.size() && rounds > 0; i++) {
            if (!lastTraces.get(TlcRunner.Mode.FORK).get(i).equals(lastTraces.get(TlcRunner.Mode.IN_PROCESS).get(i))) {
                differences.add(sims.get(i).name() + ": the traces differ");
            }
        }
        json.put("differences", differences);

        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("modelRunMedianSeconds", medians(modelRuns));
        summary.put("simRunMedianSeconds", medians(simRuns));
        summary.put("modelBatchMedianSeconds", medians(modelBatch));
        summary.put("simBatchMedianSeconds", medians(simBatch));
        json.put("summary", summary);
        System.out.println();
        if (rounds > 0) {
        System.out.printf(Locale.ROOT, "%-28s %10s %10s %8s%n", "median (s)", "forked", "in-process", "ratio");
        row("one model run", modelRuns);
        row("one trace generation", simRuns);
        row("batch of models", modelBatch);
        row("batch of trace generations", simBatch);
        System.out.println("differences between the modes: " + (differences.isEmpty() ? "none" : differences));
        }

        int leakRuns = Integer.parseInt(opt.get("leak"));
        if (leakRuns > 0) {
            json.put("leak", leak(repo, models.get(0), runners.get(TlcRunner.Mode.IN_PROCESS), leakRuns));
        }
        if (!opt.get("out").isEmpty()) {
            Path out = Path.of(opt.get("out"));
            Files.writeString(out, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json));
            System.out.println("wrote " + out);
        }
    }

    /** Heap after a full GC and the classes loaded, every quarter of {@code n} in-process runs of one model. */
    private static List<Map<String, Object>> leak(Repo repo, ModelEntry m, TlcRunner runner, int n) {
        List<Map<String, Object>> points = new ArrayList<>();
        for (int i = 0; i <= n; i++) {
            if (i % Math.max(1, n / 4) == 0 || i == n) {
                for (int k = 0; k < 3; k++) {
                    System.gc();
                }
                var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
                var cl = ManagementFactory.getClassLoadingMXBean();
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("runs", i);
                p.put("heapUsedMiB", heap.getUsed() / (1024.0 * 1024.0));
                p.put("classesLoaded", cl.getLoadedClassCount());
                p.put("classesUnloaded", cl.getUnloadedClassCount());
                p.put("threads", Thread.activeCount());
                points.add(p);
                System.out.printf(Locale.ROOT, "after %4d in-process runs of %s: heap %.1f MiB after GC, %d classes"
                        + " loaded, %d unloaded, %d threads%n", i, m.name(), heap.getUsed() / (1024.0 * 1024.0),
                        cl.getLoadedClassCount(), cl.getUnloadedClassCount(), Thread.activeCount());
            }
            if (i < n) {
                runner.run(ModelExpectation.request(repo, m, Duration.ofMinutes(5)));
            }
        }
        return points;
    }

    private static <T> List<T> spread(List<T> all, int n) {
        if (n >= all.size()) {
            return all;
        }
        List<T> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(all.get(i * all.size() / n));
        }
        return out;
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static Map<String, Double> medians(Map<TlcRunner.Mode, List<Double>> byMode) {
        Map<String, Double> out = new LinkedHashMap<>();
        byMode.forEach((k, v) -> out.put(k.name(), median(v)));
        return out;
    }

    private static void row(String what, Map<TlcRunner.Mode, List<Double>> byMode) {
        double f = median(byMode.get(TlcRunner.Mode.FORK));
        double p = median(byMode.get(TlcRunner.Mode.IN_PROCESS));
        System.out.printf(Locale.ROOT, "%-28s %10.2f %10.2f %7.2fx%n", what, f, p, f / p);
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(Double::compare);
        int n = s.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
