package dev.onceproof.bench.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import dev.onceproof.bench.LoadAverage;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.storage.Journal;
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
 * {@code onceproof bench durable-notes}: issue 19 item 5's "durable notes per second with group
 * commit against one fsync per step", for Strategies 3 and 4, {@code --clients} clients over
 * {@code --servers} servers in one process, each server's records in one journal on this machine's
 * disk ({@link DurableNotes}). The two commit modes alternate within each round, so both see the
 * same machine; each figure is the median over the rounds, and the ratio is taken per round. The
 * issue's goal: at least 20,000 durable notes per second with group commit.
 */
@Command(name = "durable-notes", mixinStandardHelpOptions = true,
        description = "Exactly-once servers: durable notes/s with group commit against one fsync per record.")
public final class DurableNotesCommand implements Callable<Integer> {

    static final double GOAL_NOTES_PER_SECOND = 20_000;

    @Option(names = "--strategies", split = ",", defaultValue = "S3,S4",
            description = "Strategies to run (default ${DEFAULT-VALUE}).")
    List<Strategy> strategies;

    @Option(names = "--clients", defaultValue = "64", description = "Clients, one thread each (default ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--servers", defaultValue = "3", description = "Servers (default ${DEFAULT-VALUE}).")
    int servers;

    @Option(names = "--seconds", defaultValue = "5", description = "Measuring window per run (default ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup", defaultValue = "2", description = "Warm-up per run, on stores of its own (default ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds; each runs every strategy in both modes (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--in-flight", split = ",", defaultValue = "1,50",
            description = "Notes each client keeps in flight, each a setting of its own (divisors of --sync-every;"
                    + " default ${DEFAULT-VALUE}).")
    List<Integer> inFlight;

    @Option(names = "--sync-every", defaultValue = "100", description = "Notes between syncs (default ${DEFAULT-VALUE}).")
    int syncEvery;

    @Option(names = "--q", defaultValue = "256", description = "Strategy 3's R size q (default ${DEFAULT-VALUE}).")
    int q;

    @Option(names = "--dir", defaultValue = "target/onceproof/durable-notes",
            description = "Where the journals go (this machine's disk; emptied first) (default ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--out", defaultValue = "bench/results/history/durable-notes.json", description = "JSON result file.")
    Path out;

    /** The modes side by side in each round; null: no journal (--baseline). */
    private static final List<Journal.Commit> MODES = java.util.Arrays.asList(Journal.Commit.PER_OPERATION,
            Journal.Commit.GROUP, null);

    @Option(names = "--baseline", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run the loops with no journal at all, in each round: what the cores and threads cost"
                    + " without a disk (default ${DEFAULT-VALUE}).")
    boolean baseline;

    @Override
    public Integer call() throws IOException {
        if (clients < 1 || servers < 2 || rounds < 1 || !(seconds > 0) || warmup < 0) {
            throw new CommandLine.ParameterException(new CommandLine(this), "need --clients >= 1, --servers >= 2,"
                    + " --rounds >= 1, --seconds > 0 and --warmup >= 0");
        }
        for (int k : inFlight) {
            if (k < 1 || syncEvery % k != 0) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--in-flight: " + k
                        + " does not divide --sync-every " + syncEvery);
            }
        }
        PrintStream o = System.out;
        String loadBefore = LoadAverage.now();
        o.printf("durable notes: %s, %d clients over %d servers, %s notes in flight per client, %d rounds of %.0f s"
                + " (+%.0f s warm-up) per run, journals under %s, load %s%n", strategies, clients, servers, inFlight,
                rounds, seconds, warmup, dir, loadBefore);
        List<Map<String, Object>> budgets = budgets(o);
        List<DurableNotes.Result> results = new ArrayList<>();
        o.printf("%n  %-5s %-5s %-9s %-13s %10s %12s %12s %14s %12s%n", "round", "strat", "in flight", "commit", "notes",
                "notes/s", "fsyncs/s", "notes/fsync", "CPU µs/note");
        for (int round = 1; round <= rounds; round++) {
            for (Strategy s : strategies) {
                for (int k : inFlight) {
                    for (Journal.Commit mode : MODES) {
                        if (mode == null && !baseline) {
                            continue;
                        }
                        Path runDir = dir.resolve(s.name() + "-" + k + "-" + (mode == null ? "none" : mode.name().toLowerCase())
                                + "-" + round);
                        delete(runDir);
                        DurableNotes.Result r = DurableNotes.run(s, mode, clients, servers, k, syncEvery, q, warmup,
                                seconds, runDir);
                        delete(runDir);
                        results.add(r);
                        o.printf("  %-5d %-5s %-9d %-13s %10d %12.0f %12.0f %14.2f %12.1f%n", round, s, k, r.commit(),
                                r.notes(), r.notesPerSecond(), r.fsyncsPerSecond(), r.notesPerFsync(),
                                r.cpuMicrosPerNote());
                    }
                }
            }
        }
        List<Map<String, Object>> summary = new ArrayList<>();
        o.println();
        for (Strategy s : strategies) {
            for (int k : inFlight) {
                double group = median(results, s, k, Journal.Commit.GROUP, DurableNotes.Result::notesPerSecond);
                double each = median(results, s, k, Journal.Commit.PER_OPERATION, DurableNotes.Result::notesPerSecond);
                double[] ratios = new double[rounds];
                for (int i = 0; i < rounds; i++) {
                    ratios[i] = pick(results, s, k, Journal.Commit.GROUP, i).notesPerSecond()
                            / pick(results, s, k, Journal.Commit.PER_OPERATION, i).notesPerSecond();
                }
                double ratio = Median.withDefaults().evaluate(ratios);
                String verdict = String.format("%s: %.0f durable notes/s with group commit (goal >= %.0f), %.0f with"
                        + " one fsync per record, %.1fx (median of the rounds' ratios)",
                        group >= GOAL_NOTES_PER_SECOND ? "PASS" : "FAIL", group, GOAL_NOTES_PER_SECOND, each, ratio);
                o.println(s + ", " + k + " in flight per client: " + verdict + (baseline ? String.format(
                        "; CPU %.0f µs/note with group commit, %.0f µs/note and %.0f notes/s with no journal",
                        median(results, s, k, Journal.Commit.GROUP, DurableNotes.Result::cpuMicrosPerNote),
                        median(results, s, k, null, DurableNotes.Result::cpuMicrosPerNote),
                        median(results, s, k, null, DurableNotes.Result::notesPerSecond)) : ""));
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("strategy", s.name());
                m.put("inFlight", k);
                m.put("groupNotesPerSecond", group);
                m.put("perRecordNotesPerSecond", each);
                m.put("groupFsyncsPerSecond", median(results, s, k, Journal.Commit.GROUP,
                        DurableNotes.Result::fsyncsPerSecond));
                m.put("perRecordFsyncsPerSecond", median(results, s, k, Journal.Commit.PER_OPERATION,
                        DurableNotes.Result::fsyncsPerSecond));
                m.put("groupNotesPerFsync", median(results, s, k, Journal.Commit.GROUP,
                        DurableNotes.Result::notesPerFsync));
                m.put("perRecordNotesPerFsync", median(results, s, k, Journal.Commit.PER_OPERATION,
                        DurableNotes.Result::notesPerFsync));
                m.put("groupCpuMicrosPerNote", median(results, s, k, Journal.Commit.GROUP,
                        DurableNotes.Result::cpuMicrosPerNote));
                if (baseline) {
                    m.put("noJournalNotesPerSecond", median(results, s, k, null, DurableNotes.Result::notesPerSecond));
                    m.put("noJournalCpuMicrosPerNote", median(results, s, k, null,
                            DurableNotes.Result::cpuMicrosPerNote));
                }
                m.put("ratio", ratio);
                m.put("verdict", verdict);
                summary.add(m);
            }
        }
        String loadAfter = LoadAverage.now();
        o.println("\nload average before " + loadBefore + ", after " + loadAfter);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("benchmark", "exactly-once servers: durable notes per second, group commit against one fsync per"
                + " record (issue 19 item 5)");
        json.put("command", "./onceproof bench durable-notes --strategies " + String.join(",", strategies.stream()
                .map(Strategy::name).toList()) + " --clients " + clients + " --servers " + servers
                + " --in-flight " + String.join(",", inFlight.stream().map(String::valueOf).toList()) + " --seconds "
                + seconds + " --warmup " + warmup + " --rounds " + rounds + (baseline ? "" : " --no-baseline") + " --sync-every " + syncEvery + " --q " + q);
        json.put("when", Instant.now().toString());
        json.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        json.put("cores", Runtime.getRuntime().availableProcessors());
        json.put("loadAverageBefore", loadBefore);
        json.put("loadAverageAfter", loadAfter);
        json.put("goal", "at least " + (long) GOAL_NOTES_PER_SECOND + " durable notes/s with group commit");
        json.put("fsyncBudget", budgets);
        json.put("summary", summary);
        json.put("runs", results);
        Path target = out.toAbsolutePath();
        Files.createDirectories(target.getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(target.toFile(), json);
        o.println("wrote " + out);
        return 0;
    }

    /**
     * The fsync budget per note ({@link RecordCensus}), counted on the loop without a disk: records
     * per note at each server by operation, and the commits that find records.
     */
    private List<Map<String, Object>> budgets(PrintStream o) {
        List<Map<String, Object>> out = new ArrayList<>();
        o.println("\nfsync budget per note (counted on the loop, 10,000 notes, no disk): records by server and"
                + " operations; commits with records by server");
        for (Strategy s : strategies) {
            for (int k : inFlight) {
                RecordCensus.Budget b = RecordCensus.of(s, servers, k, syncEvery, q, 10_000);
                o.printf("  %s, %d in flight: %.2f records per note, %.2f commits per note%n", s, k, b.records(),
                        b.commits());
                b.recordsPerNote().forEach((what, n) -> o.printf("    %-40s %8.3f records/note%n", what, n));
                b.commitsPerNote().forEach((at, n) -> o.printf("    %-40s %8.3f commits/note%n", "commits at " + at, n));
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("strategy", s.name());
                m.put("inFlight", k);
                m.put("notesCounted", b.notes());
                m.put("recordsPerNote", b.records());
                m.put("commitsPerNote", b.commits());
                m.put("recordsPerNoteBy", b.recordsPerNote());
                m.put("commitsPerNoteBy", b.commitsPerNote());
                out.add(m);
            }
        }
        return out;
    }

    private static DurableNotes.Result pick(List<DurableNotes.Result> rs, Strategy s, int k, Journal.Commit mode,
            int round) {
        return rs.stream().filter(r -> r.strategy().equals(s.name()) && r.inFlight() == k
                && r.commit().equals(mode == null ? DurableNotes.NO_JOURNAL : mode.name())).skip(round).findFirst()
                .orElseThrow();
    }

    private static double median(List<DurableNotes.Result> rs, Strategy s, int k, Journal.Commit mode,
            java.util.function.ToDoubleFunction<DurableNotes.Result> f) {
        double[] v = rs.stream().filter(r -> r.strategy().equals(s.name()) && r.inFlight() == k
                && r.commit().equals(mode == null ? DurableNotes.NO_JOURNAL : mode.name())).mapToDouble(f).toArray();
        return v.length == 0 ? Double.NaN : Median.withDefaults().evaluate(v);
    }

    private static void delete(Path d) throws IOException {
        if (Files.exists(d)) {
            MoreFiles.deleteRecursively(d, RecursiveDeleteOption.ALLOW_INSECURE);
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new DurableNotesCommand()).execute(args));
    }
}
