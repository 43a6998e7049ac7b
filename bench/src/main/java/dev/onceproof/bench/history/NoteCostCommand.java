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

    @Option(names = "--warmup", defaultValue = "200000",
            description = "Least notes of the unrecorded warm-up per strategy (default ${DEFAULT-VALUE}); it goes on"
                    + " until the JIT has settled (--settle).")
    long warmup;

    @Option(names = "--settle", defaultValue = "0.01",
            description = "The warm-up ends once " + SETTLED_BLOCKS + " blocks of " + WARMUP_BLOCK + " notes in a row"
                    + " each spent at most this share of their time compiling (the JVM's compilation time; default"
                    + " ${DEFAULT-VALUE}), or after " + WARMUP_CAP + " notes.")
    double settle;

    /** Notes per warm-up block: at about 3 µs a note, a few tens of ms, long enough to see the JIT in. */
    static final int WARMUP_BLOCK = 10_000;
    /** Notes per warm-up loop: long enough for the paths a long history takes. */
    static final int WARMUP_LOOP = 50_000;
    /** Settled blocks in a row that end the warm-up: C2's compilations come in bursts, with quiet blocks between. */
    static final int SETTLED_BLOCKS = 3;
    /** The warm-up's cap: a JIT that never settles (a loaded machine) does not hold the run for ever. */
    static final long WARMUP_CAP = 1_000_000;

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
            Warmup w = warmup(s);
            NoteCostLoop.Result r = new NoteCostLoop(s, syncEvery, q).run(sizes, budget);
            String verdict = verdict(r);
            o.printf("%n%s: warm-up %d notes in %.1f s (its last block compiled %.1f%% of its time), then %d notes"
                    + " in %.1f s%s%n", s, w.notes(), w.seconds(), 100 * w.lastJitShare(), r.notes(), r.seconds(),
                    r.stopped().map(x -> ", stopped: " + x).orElse(""));
            o.printf("  %-22s %12s %12s %12s %16s %8s %16s %8s %8s%n", "block (notes)", "median µs", "mean µs", "p99 µs",
                    "durable bytes A", "K at A", "durable bytes B", "K at B", "JIT ms");
            for (NoteCostLoop.Block b : r.blocks()) {
                o.printf("  %-22s %12.2f %12.2f %12.2f %16d %8d %16d %8d %8d%n", (b.from() + 1) + ".." + b.upTo(),
                        b.medianMicros(), b.meanMicros(), b.p99Micros(), b.durableBytesA(), b.kAtA(), b.durableBytesB(),
                        b.kAtB(), b.jitMillis());
            }
            o.println("  " + verdict);
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("strategy", s.name());
            json.put("notes", r.notes());
            json.put("seconds", r.seconds());
            json.put("warmupNotes", w.notes());
            json.put("warmupSeconds", w.seconds());
            json.put("warmupLastBlockJitShare", w.lastJitShare());
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
                + " --q " + q + " --budget " + budget + " --warmup " + warmup + " --settle " + settle);
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

    /** What the unrecorded warm-up ran. */
    record Warmup(long notes, double seconds, double lastJitShare) {
    }

    /**
     * The unrecorded warm-up: runs of the measuring loop, {@link #WARMUP_LOOP} notes each, in blocks of
     * {@link #WARMUP_BLOCK}, at least two loops and {@code --warmup} notes, until the last
     * {@link #SETTLED_BLOCKS} blocks in a row each spent at most {@code --settle} of their time in
     * the JIT, or {@link #WARMUP_CAP} notes. Several loops, because a fresh loop's first notes take
     * paths (empty maps, the first connect) that C2 compiled away in a long run: under
     * -XX:+PrintCompilation, S1's pump, deliver and {@code S1Server.remove} were made not entrant as
     * the measured loop started after one long warm-up loop, and ran on profiling code until
     * recompiled, so its 10^6 block was 2.8x faster than its first; long loops, because warm-up
     * loops of 10^4 notes left the JIT compiling in the measured 10^6 block; the measuring code
     * itself ({@code run}), because a warm-up through another caller left its 10^6 block 3.5x
     * faster than its first (run's loop is compiled on its own, on stack, after some 10^4 notes).
     * HotSpot compiles a method with C2 after about 10^4 calls and loops, and keeps recompiling as
     * profiles change (the syncs and purges come every 100 notes), so the loop settles only after
     * some 10^5 notes (a run without warm-up, load 13: the block medians fell until 10^5-2*10^5
     * notes, S1 26 -> 1.7 µs, S3 41 -> 3.3, S4 20 -> 2.5, the JIT busy in every block): blocks measured
     * before that partly time the compiler, which made the first blocks 2-15x the later ones. A JVM
     * without the compilation counter warms up {@code --warmup} notes.
     */
    private Warmup warmup(Strategy s) {
        long start = System.nanoTime();
        long[] blocks = new long[WARMUP_LOOP / WARMUP_BLOCK];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = (long) (i + 1) * WARMUP_BLOCK;
        }
        long total = 0;
        int settled = 0;
        double share = Double.NaN;
        for (int loops = 0; loops < 2 || total < Math.min(warmup, WARMUP_CAP)
                || settled < SETTLED_BLOCKS && total < WARMUP_CAP; loops++) {
            // The measured run's own code (run, its timing and its blocks), so its callers are compiled too.
            for (NoteCostLoop.Block b : new NoteCostLoop(s, syncEvery, q).run(blocks, budget).blocks()) {
                total += b.upTo() - b.from();
                share = b.jitMillis() < 0 ? 0 : b.jitMillis() * 1e3 / (b.meanMicros() * (b.upTo() - b.from()));
                settled = share <= settle ? settled + 1 : 0;
            }
        }
        return new Warmup(total, (System.nanoTime() - start) / 1e9, share);
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
