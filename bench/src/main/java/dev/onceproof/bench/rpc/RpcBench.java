package dev.onceproof.bench.rpc;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two experiments of paper 3.1, run side by side: (a) Figure 3-2, one client making
 * {@code calls} sequential null calls; (b) Figure 3-3, {@code clients} clients making one null call
 * each, each client with its own socket (and connection id). Every round runs every system on both
 * experiments, in an order rotated each round so no system always runs right after another's
 * garbage; the warm-up rounds are run the same way and thrown away.
 */
public final class RpcBench {

    /** Experiment names as they appear in tables and JSON. */
    public static final String SEQUENTIAL = "a-sequential";
    public static final String MANY_CLIENTS = "b-many-clients";

    /** How much to run; the paper's numbers are 1000 calls and 1000 clients. */
    public record Config(int calls, int clients, int rounds, int warmupRounds, int payloadBytes) {
        public Config {
            if (calls < 1 || clients < 1 || rounds < 1 || warmupRounds < 0 || payloadBytes < 0) {
                throw new IllegalArgumentException("calls, clients and rounds must be >= 1, warm-up"
                        + " rounds and payload >= 0; got " + this);
            }
        }
    }

    /**
     * Per round, by system then experiment: elapsed milliseconds (what the paper plots) and the
     * CPU milliseconds this process used meanwhile (client and server threads both live here).
     * CPU time barely moves when other work on the machine delays a thread, so it backs up the
     * elapsed-time ratios when the machine is shared.
     */
    public record Results(Config config, Map<String, Map<String, List<Double>>> millis,
                          Map<String, Map<String, List<Double>>> cpuMillis) {
    }

    /** Elapsed and CPU time of one experiment on one system. */
    private record Timing(double millis, double cpuMillis) {
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * CPU nanoseconds used so far by every live thread of this JVM (servers, client, GC, JIT). The
     * per-thread clocks are exact to the nanosecond, unlike the process clock, which moves in 10 ms
     * ticks; no thread of ours ends during a round, so none is missed.
     */
    private static long cpuNanos() {
        long sum = 0;
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t > 0) {
                sum += t;
            }
        }
        return sum;
    }

    private final Config config;
    private final PrintStream progress;

    public RpcBench(Config config, PrintStream progress) {
        this.config = config;
        this.progress = progress;
    }

    public Results run(List<RpcSystem> systems) throws IOException {
        Map<String, Map<String, List<Double>>> millis = new LinkedHashMap<>();
        Map<String, Map<String, List<Double>>> cpu = new LinkedHashMap<>();
        for (RpcSystem s : systems) {
            for (Map<String, Map<String, List<Double>>> m : List.of(millis, cpu)) {
                Map<String, List<Double>> bySystem = new LinkedHashMap<>();
                bySystem.put(SEQUENTIAL, new ArrayList<>());
                bySystem.put(MANY_CLIENTS, new ArrayList<>());
                m.put(s.name(), bySystem);
            }
        }
        byte[] args = new byte[config.payloadBytes()];
        int total = config.warmupRounds() + config.rounds();
        for (int round = 0; round < total; round++) {
            boolean warmup = round < config.warmupRounds();
            StringBuilder line = new StringBuilder(warmup ? "warm-up " : "round ")
                    .append(warmup ? round + 1 : round - config.warmupRounds() + 1).append(':');
            for (int i = 0; i < systems.size(); i++) {
                RpcSystem s = systems.get((round + i) % systems.size());
                Timing a = sequential(s, args);
                Timing b = manyClients(s, args);
                if (!warmup) {
                    millis.get(s.name()).get(SEQUENTIAL).add(a.millis());
                    millis.get(s.name()).get(MANY_CLIENTS).add(b.millis());
                    cpu.get(s.name()).get(SEQUENTIAL).add(a.cpuMillis());
                    cpu.get(s.name()).get(MANY_CLIENTS).add(b.cpuMillis());
                }
                line.append(String.format("  %s a=%.1f ms b=%.1f ms", s.name(), a.millis(), b.millis()));
            }
            progress.println(line);
        }
        return new Results(config, millis, cpu);
    }

    /** Figure 3-2: one client, sequential calls; the client's socket is made before the clock starts. */
    private Timing sequential(RpcSystem system, byte[] args) throws IOException {
        try (RpcSystem.Client client = system.newClient()) {
            long cpu = cpuNanos();
            long start = System.nanoTime();
            for (int i = 0; i < config.calls(); i++) {
                client.call(args);
            }
            return new Timing((System.nanoTime() - start) / 1e6, (cpuNanos() - cpu) / 1e6);
        }
    }

    /** Figure 3-3: a new client (socket, connection id, for TCP a connection) for every call. */
    private Timing manyClients(RpcSystem system, byte[] args) throws IOException {
        long cpu = cpuNanos();
        long start = System.nanoTime();
        for (int i = 0; i < config.clients(); i++) {
            try (RpcSystem.Client client = system.newClient()) {
                client.call(args);
            }
        }
        return new Timing((System.nanoTime() - start) / 1e6, (cpuNanos() - cpu) / 1e6);
    }
}
