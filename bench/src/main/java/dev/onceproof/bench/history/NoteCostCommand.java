package dev.onceproof.bench.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.onceproof.exactlyonce.Strategy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.commons.statistics.descriptive.Median;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code onceproof bench note-cost}: the exactly-once server cores' cost per note as their history
 * grows (issue 19 item 5, "Per-note core cost"), Strategies 1, 3 and 4 side by side in one run, with
 * the bytes of the durable state at each size. The goal the issue sets: at most 5 µs per note at 10^6
 * notes and flat within 2x across the sizes. A strategy whose cores cannot reach a size (an error, or
 * the time budget) says where and why it stopped; its verdict is then NOT REACHED, never a pass.
 */
@Command(name = "note-cost", mixinStandardHelpOptions = true,
        description = "Exactly-once cores: median cost per note at 10^3..10^6 notes delivered, S1, S3, S4.")
public final class NoteCostCommand implements Callable<Integer> {

    static final double GOAL_MICROS = 5;
    static final double GOAL_FLATNESS = 2;

    @Option(names = "--strategies", split = ",", defaultValue = "S1,S3,S4",
            description = "Strategies to run, in turn (default ${DEFAULT-VALUE}).")
    List<Strategy> strategies;

    @Option(names = "--sizes", split = ",", defaultValue = "1000,10000,100000,1000000",
            description = "Block boundaries: notes delivered at which a block closes (default ${DEFAULT-VALUE}).")
    long[] sizes;

    @Option(names = "--sync-every", defaultValue = "100",
            description = "Notes between syncs of A and B (default ${DEFAULT-VALUE}, the issue's).")
    int syncEvery;

    @Option(names = "--q", defaultValue = "256",
            description = "Strategy 3's R size q; it must exceed --sync-every, since a purge waits for the sync that"
                    + " confirms it (default ${DEFAULT-VALUE}).")
    int q;

    @Option(names = "--budget", defaultValue = "120",
            description = "Wall-clock seconds per strategy; a run that spends it stops and says where (default ${DEFAULT-VALUE}).")
    double budget;

    @Option(names = "--warmup", defaultValue = "2000",
            description = "Notes of an unrecorded run per strategy first, so the JIT has compiled the loop (default ${DEFAULT-VALUE}).")
    long warmup;

    @Option(names = "--out", defaultValue = "bench/results/history/note-cost.json", description = "JSON result file.")
    Path out;

    @Override
    public Integer call() throws IOException {
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] <= (i == 0 ? 0 : sizes[i - 1])) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--sizes: must rise and be positive, got " + java.util.Arrays.toString(sizes));
            }
        }
        PrintStream o = System.out;
        String loadBefore = dev.onceproof.bench.LoadAverage.now();
        o.printf("note cost: strategies %s, blocks up to %s, a sync every %d notes, budget %.0f s each, load %s%n",
                strategies, java.util.Arrays.toString(sizes), syncEvery, budget, loadBefore);
        List<Map<String, Object>> runs = new ArrayList<>();
        for (Strategy s : strategies) {
            if (warmup > 0) {
                new NoteCostLoop(s, syncEvery, q).run(new long[] {warmup}, budget);
            }
            NoteCostLoop.Result r = new NoteCostLoop(s, syncEvery, q).run(sizes, budget);
            String verdict = verdict(r);
            o.printf("%n%s: %d notes in %.1f s%s%n", s, r.notes(), r.seconds(),
                    r.stopped().map(w -> ", stopped: " + w).orElse(""));
            o.printf("  %-22s %12s %12s %12s %16s %8s %16s %8s%n", "block (notes)", "median µs", "mean µs", "p99 µs",
                    "durable bytes A", "K at A", "durable bytes B", "K at B");
            for (NoteCostLoop.Block b : r.blocks()) {
                o.printf("  %-22s %12.2f %12.2f %12.2f %16d %8d %16d %8d%n", (b.from() + 1) + ".." + b.upTo(),
                        b.medianMicros(), b.meanMicros(), b.p99Micros(), b.durableBytesA(), b.kAtA(), b.durableBytesB(),
                        b.kAtB());
            }
            o.println("  " + verdict);
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("strategy", s.name());
            json.put("notes", r.notes());
            json.put("seconds", r.seconds());
            json.put("stopped", r.stopped().orElse(null));
            json.put("recordEffects", r.records());
            json.put("blocks", r.blocks());
            json.put("verdict", verdict);
            runs.add(json);
        }
        String loadAfter = dev.onceproof.bench.LoadAverage.now();
        o.println("\nload average before " + loadBefore + ", after " + loadAfter);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("benchmark", "exactly-once server core cost per note as history grows (issue 19 item 5)");
        json.put("command", "./onceproof bench note-cost --strategies " + String.join(",", strategies.stream()
                .map(Strategy::name).toList()) + " --sizes " + joined(sizes) + " --sync-every " + syncEvery
                + " --q " + q + " --budget " + budget + " --warmup " + warmup);
        json.put("when", Instant.now().toString());
        json.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        json.put("cores", Runtime.getRuntime().availableProcessors());
        json.put("loadAverageBefore", loadBefore);
        json.put("loadAverageAfter", loadAfter);
        json.put("goal", "median <= " + GOAL_MICROS + " µs per note at the largest size, medians within "
                + GOAL_FLATNESS + "x across the sizes");
        json.put("runs", runs);
        Path target = out.toAbsolutePath();
        Files.createDirectories(target.getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(target.toFile(), json);
        o.println("wrote " + out);
        return 0;
    }

    /** PASS/FAIL against the goal, or NOT REACHED when the run stopped before the last size. */
    String verdict(NoteCostLoop.Result r) {
        long last = sizes[sizes.length - 1];
        if (r.blocks().isEmpty() || r.blocks().get(r.blocks().size() - 1).upTo() < last
                || r.stopped().isPresent() && r.notes() < last) {
            return "NOT REACHED: " + r.notes() + " of " + last + " notes (" + r.stopped().orElse("?") + ")";
        }
        double min = Double.MAX_VALUE;
        double max = 0;
        for (NoteCostLoop.Block b : r.blocks()) {
            min = Math.min(min, b.medianMicros());
            max = Math.max(max, b.medianMicros());
        }
        double at = r.blocks().get(r.blocks().size() - 1).medianMicros();
        boolean pass = at <= GOAL_MICROS && max <= GOAL_FLATNESS * min;
        return String.format("%s: median %.2f µs at %d notes (goal <= %.0f), medians span %.1fx (goal <= %.0fx)",
                pass ? "PASS" : "FAIL", at, last, GOAL_MICROS, max / min, GOAL_FLATNESS);
    }

    static double median(double[] v) {
        return Median.withDefaults().evaluate(v.clone()); // evaluate may reorder its input
    }

    private static String joined(long[] v) {
        StringBuilder b = new StringBuilder();
        for (long x : v) {
            b.append(b.length() == 0 ? "" : ",").append(x);
        }
        return b.toString();
    }


    public static void main(String[] args) {
        System.exit(new CommandLine(new NoteCostCommand()).execute(args));
    }
}
