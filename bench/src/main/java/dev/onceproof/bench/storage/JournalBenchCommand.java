package dev.onceproof.bench.storage;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.onceproof.storage.Journal;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import org.apache.commons.statistics.descriptive.Median;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code onceproof bench journal}: durable operations per second of the storage journal with group
 * commit against one fsync per operation, side by side in one run (issue 19, item 5 "Durable notes
 * per second", the raw journal's part). Rounds alternate the two, the order swapping each round;
 * prints the table and per-round ratios and writes JSON.
 */
@Command(name = "journal", mixinStandardHelpOptions = true,
        description = "Journal durable ops/s: group commit vs one fsync per operation, many threads, real fsync.")
public final class JournalBenchCommand implements Callable<Integer> {

    /** Issue 19's goal for the whole S3/S4 path; the raw journal is one part of it. */
    static final double GOAL_OPS_PER_SECOND = 20_000;

    @Option(names = "--threads", defaultValue = "64",
            description = "Threads appending and committing at once (default ${DEFAULT-VALUE}, the issue's 64 clients).")
    int threads;

    @Option(names = "--record-bytes", defaultValue = "100",
            description = "Bytes per record on disk, 16 of framing included (default ${DEFAULT-VALUE}: a note id"
                    + " and a K/D change).")
    int recordBytes;

    @Option(names = "--seconds", defaultValue = "3", description = "Length of each measured run (default ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--rounds", defaultValue = "5",
            description = "Measured rounds; each runs both modes (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup", defaultValue = "1", description = "Unrecorded rounds first (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--dir", defaultValue = "bench/target/journal-bench",
            description = "Where the journal is written: each run makes a fresh directory in this one, on the disk"
                    + " to measure, and deletes it afterwards (default ${DEFAULT-VALUE}, this checkout's disk).")
    Path dir;

    @Option(names = "--out", defaultValue = "bench/results/storage/journal.json", description = "JSON result file.")
    Path out;

    @Override
    public Integer call() throws Exception {
        PrintStream o = System.out;
        String loadBefore = dev.onceproof.bench.LoadAverage.now();
        o.printf("journal in %s: %d threads, %d-byte records, %d rounds of %.1f s per mode after %d warm-up; load %s%n",
                dir.toAbsolutePath(), threads, recordBytes, rounds, seconds, warmup, loadBefore);
        List<JournalBench.Run> group = new ArrayList<>();
        List<JournalBench.Run> perOp = new ArrayList<>();
        for (int r = -warmup; r < rounds; r++) {
            List<Journal.Commit> order = (r & 1) == 0 ? List.of(Journal.Commit.GROUP, Journal.Commit.PER_OPERATION)
                    : List.of(Journal.Commit.PER_OPERATION, Journal.Commit.GROUP);
            for (Journal.Commit c : order) {
                JournalBench.Run run = JournalBench.run(dir, c, threads, recordBytes, seconds);
                o.printf("%s %-13s %10.0f ops/s %8.0f fsyncs/s %7.1f ops/fsync%n", r < 0 ? "warm-up " : "round " + r,
                        c, run.opsPerSecond(), run.fsyncsPerSecond(), run.opsPerFsync());
                if (r >= 0) {
                    (c == Journal.Commit.GROUP ? group : perOp).add(run);
                }
            }
        }
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            ratios[r] = group.get(r).opsPerSecond() / perOp.get(r).opsPerSecond();
        }
        String loadAfter = dev.onceproof.bench.LoadAverage.now();
        o.println();
        o.println("Durable operations per second (median of " + rounds + " rounds; min..max)");
        o.printf("%-15s %22s %18s %16s%n", "mode", "ops/s", "fsyncs/s", "ops/fsync");
        Map<String, Object> modes = new LinkedHashMap<>();
        for (List<JournalBench.Run> runs : List.of(group, perOp)) {
            o.printf("%-15s %22s %18s %16s%n", runs.get(0).commit(), range(runs, JournalBench.Run::opsPerSecond, "%.0f"),
                    range(runs, JournalBench.Run::fsyncsPerSecond, "%.0f"), range(runs, JournalBench.Run::opsPerFsync, "%.1f"));
            modes.put(runs.get(0).commit().name(), json(runs));
        }
        double ratio = median(ratios);
        double groupMedian = median(values(group, JournalBench.Run::opsPerSecond));
        o.printf("group / per-operation ops/s: median %.1f x (per round %s)%n", ratio, format(ratios));
        o.printf("%s group commit %.0f durable ops/s against the issue's goal of %.0f (the whole S3/S4 path's, of which"
                + " this is the raw journal)%n", groupMedian >= GOAL_OPS_PER_SECOND ? "PASS" : "FAIL", groupMedian,
                GOAL_OPS_PER_SECOND);
        o.println("load average before " + loadBefore + ", after " + loadAfter);

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("benchmark", "journal durable ops/s, group commit vs one fsync per operation (issue 19 item 5)");
        json.put("when", Instant.now().toString());
        json.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        json.put("cores", Runtime.getRuntime().availableProcessors());
        json.put("loadAverageBefore", loadBefore);
        json.put("loadAverageAfter", loadAfter);
        json.put("directory", dir.toAbsolutePath().toString());
        json.put("threads", threads);
        json.put("recordBytes", recordBytes);
        json.put("secondsPerRun", seconds);
        json.put("rounds", rounds);
        json.put("modes", modes);
        json.put("groupOverPerOperationOpsPerSecond", Map.of("median", ratio, "perRound", ratios));
        json.put("goalOpsPerSecond", GOAL_OPS_PER_SECOND);
        json.put("groupMedianOpsPerSecond", groupMedian);
        Path target = out.toAbsolutePath();
        Files.createDirectories(target.getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(target.toFile(), json);
        o.println("wrote " + out);
        return 0;
    }

    private static Map<String, Object> json(List<JournalBench.Run> runs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("opsPerSecondMedian", median(values(runs, JournalBench.Run::opsPerSecond)));
        m.put("fsyncsPerSecondMedian", median(values(runs, JournalBench.Run::fsyncsPerSecond)));
        m.put("opsPerFsyncMedian", median(values(runs, JournalBench.Run::opsPerFsync)));
        m.put("runs", runs);
        return m;
    }

    private static double[] values(List<JournalBench.Run> runs, ToDoubleFunction<JournalBench.Run> f) {
        return runs.stream().mapToDouble(f).toArray();
    }

    private static String range(List<JournalBench.Run> runs, ToDoubleFunction<JournalBench.Run> f, String fmt) {
        double[] v = values(runs, f);
        return String.format(fmt + " (" + fmt + ".." + fmt + ")", median(v), Arrays.stream(v).min().orElse(0),
                Arrays.stream(v).max().orElse(0));
    }

    static double median(double[] v) {
        return Median.withDefaults().evaluate(v.clone()); // evaluate may reorder its input
    }

    private static String format(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double x : v) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format("%.1f", x));
        }
        return b.toString();
    }


    public static void main(String[] args) {
        System.exit(new CommandLine(new JournalBenchCommand()).execute(args));
    }
}
