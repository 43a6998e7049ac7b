package dev.onceproof.bench.causal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.onceproof.bench.LoadAverage;
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
import org.apache.commons.statistics.descriptive.Median;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code onceproof bench causal-buffer}: causal datagrams per second against the number of
 * buffered events (issue 19 item 5; goal: flat within 2x from 10 to 10,000 buffered). Every size
 * has its own node, and the sizes run side by side: each round times one batch on every node, the
 * order rotated from round to round, so a change in the machine's load falls on every size alike;
 * the figure per size is the median over the rounds. The old rescan runs beside the shipped
 * delivery as the baseline (and as the control that the harness sees a core that is not flat).
 */
@Command(name = "causal-buffer", mixinStandardHelpOptions = true,
        description = "Causal core: datagrams per second with 10..10,000 events buffered, indexed delivery vs the old"
                + " rescan; flat within 2x is the goal.")
public final class CausalBufferCommand implements Callable<Integer> {

    static final double GOAL_FLATNESS = 2;

    @Option(names = "--sizes", split = ",", defaultValue = "10,100,1000,10000",
            description = "Buffered events, one node each (default ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--delivery", split = ",", defaultValue = "INDEXED,RESCAN",
            description = "Deliveries to run side by side: INDEXED (shipped), RESCAN (the old one) (default ${DEFAULT-VALUE}).")
    List<BufferLoop.Delivery> deliveries;

    @Option(names = "--batch", defaultValue = "1000", description = "Datagrams per timed batch (default ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--rounds", defaultValue = "30", description = "Timed rounds (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup", defaultValue = "10", description = "Untimed rounds first, for the JIT (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--out", defaultValue = "bench/results/causal/buffer.json", description = "JSON result file.")
    Path out;

    /** One delivery's figures: per size, the median µs per datagram and the guard evaluations per datagram. */
    record Row(BufferLoop.Delivery delivery, int buffered, double medianMicros, double minMicros, double maxMicros,
            double datagramsPerSecond, double guardEvaluations, long datagrams) {
    }

    @Override
    public Integer call() throws IOException {
        PrintStream o = System.out;
        String loadBefore = LoadAverage.now();
        o.printf("causal buffer: sizes %s, deliveries %s, %d rounds of %d datagrams per node after %d warm-up rounds,"
                + " load %s%n", Arrays.toString(sizes), deliveries, rounds, batch, warmup, loadBefore);
        List<Row> rows = run(sizes, deliveries, batch, rounds, warmup);
        String loadAfter = LoadAverage.now();
        o.printf("%n  %-9s %10s %14s %12s %12s %14s %14s%n", "delivery", "buffered", "median µs", "min µs", "max µs",
                "datagrams/s", "guard evals");
        for (Row r : rows) {
            o.printf("  %-9s %10d %14.3f %12.3f %12.3f %,14.0f %14.1f%n", r.delivery(), r.buffered(), r.medianMicros(),
                    r.minMicros(), r.maxMicros(), r.datagramsPerSecond(), r.guardEvaluations());
        }
        Map<String, String> verdicts = new LinkedHashMap<>();
        for (BufferLoop.Delivery d : deliveries) {
            List<Row> mine = rows.stream().filter(r -> r.delivery() == d).toList();
            String v = verdict(mine);
            verdicts.put(d.name(), v);
            o.printf("%s: %s%s%n", d, v, d == BufferLoop.Delivery.RESCAN ? " (the baseline the index replaced)" : "");
        }
        o.println("load average before " + loadBefore + ", after " + loadAfter);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("benchmark", "causal datagrams per second against buffered events (issue 19 item 5)");
        json.put("command", "./onceproof bench causal-buffer --sizes " + join(sizes) + " --delivery "
                + String.join(",", deliveries.stream().map(Enum::name).toList()) + " --batch " + batch + " --rounds "
                + rounds + " --warmup " + warmup);
        json.put("when", Instant.now().toString());
        json.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        json.put("cores", Runtime.getRuntime().availableProcessors());
        json.put("loadAverageBefore", loadBefore);
        json.put("loadAverageAfter", loadAfter);
        json.put("goal", "median µs per datagram within " + GOAL_FLATNESS + "x from the smallest to the largest size");
        json.put("rows", rows);
        json.put("verdicts", verdicts);
        Path target = out.toAbsolutePath();
        Files.createDirectories(target.getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(target.toFile(), json);
        o.println("wrote " + out);
        return 0;
    }

    /** Every (delivery, size) node, timed side by side; rows in the order of deliveries, then sizes. */
    static List<Row> run(int[] sizes, List<BufferLoop.Delivery> deliveries, int batch, int rounds, int warmup) {
        if (sizes.length == 0 || deliveries.isEmpty() || batch < 1 || rounds < 1 || warmup < 0) {
            throw new IllegalArgumentException("sizes " + Arrays.toString(sizes) + ", deliveries " + deliveries
                    + ", batch " + batch + ", rounds " + rounds + ", warmup " + warmup
                    + ": need a size, a delivery, batch >= 1, rounds >= 1, warmup >= 0");
        }
        List<BufferLoop> loops = new ArrayList<>();
        for (BufferLoop.Delivery d : deliveries) {
            loops.addAll(BufferLoop.forSizes(sizes, d));
        }
        double[] guard = new double[loops.size()];
        for (int i = 0; i < loops.size(); i++) {
            guard[i] = loops.get(i).guardEvaluationsPerDatagram(batch); // untimed, and a first warm-up
        }
        for (int r = 0; r < warmup; r++) {
            for (BufferLoop l : loops) {
                l.batch(batch);
            }
        }
        double[][] micros = new double[loops.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < loops.size(); k++) {
                int i = (k + r) % loops.size(); // rotate who goes first
                micros[i][r] = loops.get(i).batch(batch) / 1000.0 / batch;
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < loops.size(); i++) {
            BufferLoop l = loops.get(i);
            l.checkBuffered();
            double med = Median.withDefaults().evaluate(micros[i].clone());
            rows.add(new Row(deliveries.get(i / sizes.length), l.buffered(), med,
                    Arrays.stream(micros[i]).min().orElseThrow(), Arrays.stream(micros[i]).max().orElseThrow(),
                    1e6 / med, guard[i], l.datagrams()));
        }
        return rows;
    }

    /**
     * PASS when the medians span at most 2x from the smallest size to the largest; the guard's
     * evaluations per datagram are named beside it (the work, which does not depend on the load).
     */
    static String verdict(List<Row> rows) {
        double min = Double.MAX_VALUE;
        double max = 0;
        double gMin = Double.MAX_VALUE;
        double gMax = 0;
        for (Row r : rows) {
            min = Math.min(min, r.medianMicros());
            max = Math.max(max, r.medianMicros());
            gMin = Math.min(gMin, r.guardEvaluations());
            gMax = Math.max(gMax, r.guardEvaluations());
        }
        boolean pass = max <= GOAL_FLATNESS * min;
        return String.format("%s: median µs per datagram spans %.2fx from %d to %d buffered (goal <= %.0fx);"
                        + " guard evaluations per datagram %.1f to %.1f", pass ? "PASS" : "FAIL", max / min,
                rows.get(0).buffered(), rows.get(rows.size() - 1).buffered(), GOAL_FLATNESS, gMin, gMax);
    }

    private static String join(int[] v) {
        return String.join(",", Arrays.stream(v).mapToObj(Integer::toString).toList());
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new CausalBufferCommand()).execute(args));
    }
}
