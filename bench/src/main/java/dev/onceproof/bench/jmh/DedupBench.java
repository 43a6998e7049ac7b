package dev.onceproof.bench.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.onceproof.bench.rpc.Summary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * SCMP filter against a Caffeine cache of message ids, side by side: throughput (JMH, forked JVM)
 * and retained heap per sender (this JVM, rounds interleaved, medians). Prints both with ratios
 * and writes a JSON file.
 */
@Command(name = "dedup", mixinStandardHelpOptions = true,
        description = "SCMP filter vs a Caffeine cache of message ids: throughput and memory per sender.")
public final class DedupBench implements Callable<Integer> {

    @Option(names = "--senders", defaultValue = "20000",
            description = "Senders in the memory measurement (default ${DEFAULT-VALUE}).")
    int senders;

    @Option(names = "--messages-per-sender", defaultValue = "100",
            description = "Messages each sender sends within the window (default ${DEFAULT-VALUE}).")
    int messagesPerSender;

    @Option(names = "--memory-rounds", defaultValue = "5",
            description = "Memory measurements per deduplicator, interleaved (default ${DEFAULT-VALUE}).")
    int memoryRounds;

    @Option(names = "--jmh-iterations", defaultValue = "5",
            description = "JMH measurement iterations of 2 s (default ${DEFAULT-VALUE}).")
    int jmhIterations;

    @Option(names = "--jmh-warmup", defaultValue = "3",
            description = "JMH warm-up iterations of 2 s (default ${DEFAULT-VALUE}).")
    int jmhWarmup;

    @Option(names = "--out", defaultValue = "bench/results/rpc/dedup.json",
            description = "JSON result file (default ${DEFAULT-VALUE}).")
    Path out;

    @Override
    public Integer call() throws RunnerException, IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("benchmark", "SCMP filter vs Caffeine expireAfterWrite message-id cache");
        json.put("when", Instant.now().toString());
        json.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        json.put("cores", Runtime.getRuntime().availableProcessors());

        json.put("throughput", throughput());
        json.put("memory", memory());

        Files.createDirectories(out.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), json);
        System.out.println("wrote " + out);
        return 0;
    }

    private Map<String, Object> throughput() throws RunnerException {
        Options opt = new OptionsBuilder()
                .include(DedupThroughputBenchmark.class.getName())
                .warmupIterations(jmhWarmup).warmupTime(TimeValue.seconds(2))
                .measurementIterations(jmhIterations).measurementTime(TimeValue.seconds(2))
                .forks(1).build();
        Map<String, Map<String, Object>> bySenders = new LinkedHashMap<>();
        for (RunResult r : new Runner(opt).run()) {
            String impl = r.getParams().getParam("impl");
            String s = r.getParams().getParam("senders");
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("opsPerMicrosecond", r.getPrimaryResult().getScore());
            row.put("error99", r.getPrimaryResult().getScoreError());
            bySenders.computeIfAbsent(s, k -> new LinkedHashMap<>()).put(impl, row);
        }
        System.out.println();
        System.out.println("Throughput (messages per microsecond, JMH, 1 thread; higher is better)");
        System.out.printf("%-10s %10s %10s %16s %16s %22s%n", "senders", "scmp", "caffeine", "caffeine-async",
                "scmp / caffeine", "scmp / caffeine-async");
        Map<String, Object> result = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Object>> e : bySenders.entrySet()) {
            double scmp = score(e.getValue(), Deduplicator.SCMP);
            double caffeine = score(e.getValue(), Deduplicator.CAFFEINE);
            double async = score(e.getValue(), Deduplicator.CAFFEINE_ASYNC);
            System.out.printf("%-10s %10.3f %10.3f %16.3f %16.2f %22.2f%n", e.getKey(), scmp, caffeine, async,
                    scmp / caffeine, scmp / async);
            Map<String, Object> row = new LinkedHashMap<>(e.getValue());
            row.put("ratioScmpOverCaffeine", scmp / caffeine);
            row.put("ratioScmpOverCaffeineAsync", scmp / async);
            result.put(e.getKey(), row);
        }
        return Map.of("unit", "ops/us", "threads", 1, "bySenders", result);
    }

    @SuppressWarnings("unchecked")
    private static double score(Map<String, Object> row, String impl) {
        return (double) ((Map<String, Object>) row.get(impl)).get("opsPerMicrosecond");
    }

    private Map<String, Object> memory() {
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        samples.put(Deduplicator.SCMP, new ArrayList<>());
        samples.put(Deduplicator.CAFFEINE, new ArrayList<>());
        // One unrecorded round each first: class loading and JIT allocate too.
        for (String impl : samples.keySet()) {
            DedupMemoryHarness.bytesPerSender(impl, senders, messagesPerSender);
        }
        for (int round = 0; round < memoryRounds; round++) {
            for (String impl : samples.keySet()) {
                samples.get(impl).add(DedupMemoryHarness.bytesPerSender(impl, senders, messagesPerSender));
            }
        }
        Summary scmp = Summary.of(samples.get(Deduplicator.SCMP));
        Summary caffeine = Summary.of(samples.get(Deduplicator.CAFFEINE));
        System.out.println();
        System.out.printf("Retained heap per sender (%d senders x %d messages in the window; lower is better)%n",
                senders, messagesPerSender);
        System.out.printf("%-10s %12s %12s %12s%n", "impl", "median B", "min B", "max B");
        System.out.printf("%-10s %12.1f %12.1f %12.1f%n", "scmp", scmp.median(), scmp.min(), scmp.max());
        System.out.printf("%-10s %12.1f %12.1f %12.1f%n", "caffeine", caffeine.median(), caffeine.min(),
                caffeine.max());
        System.out.printf("caffeine / scmp = %.1f x%n", caffeine.median() / scmp.median());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("senders", senders);
        result.put("messagesPerSender", messagesPerSender);
        result.put("unit", "bytes per sender");
        result.put(Deduplicator.SCMP, scmp);
        result.put(Deduplicator.CAFFEINE, caffeine);
        result.put("ratioCaffeineOverScmp", caffeine.median() / scmp.median());
        return result;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new DedupBench()).execute(args));
    }
}
