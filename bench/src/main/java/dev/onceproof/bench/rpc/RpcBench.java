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

    /** Elapsed milliseconds per round, by system then experiment. */
    public record Results(Config config, Map<String, Map<String, List<Double>>> millis) {
    }

    private final Config config;
    private final PrintStream progress;

    public RpcBench(Config config, PrintStream progress) {
        this.config = config;
        this.progress = progress;
    }

    public Results run(List<RpcSystem> systems) throws IOException {
        Map<String, Map<String, List<Double>>> millis = new LinkedHashMap<>();
        for (RpcSystem s : systems) {
            Map<String, List<Double>> bySystem = new LinkedHashMap<>();
            bySystem.put(SEQUENTIAL, new ArrayList<>());
            bySystem.put(MANY_CLIENTS, new ArrayList<>());
            millis.put(s.name(), bySystem);
        }
        byte[] args = new byte[config.payloadBytes()];
        int total = config.warmupRounds() + config.rounds();
        for (int round = 0; round < total; round++) {
            boolean warmup = round < config.warmupRounds();
            StringBuilder line = new StringBuilder(warmup ? "warm-up " : "round ")
                    .append(warmup ? round + 1 : round - config.warmupRounds() + 1).append(':');
            for (int i = 0; i < systems.size(); i++) {
                RpcSystem s = systems.get((round + i) % systems.size());
                double a = sequential(s, args);
                double b = manyClients(s, args);
                if (!warmup) {
                    millis.get(s.name()).get(SEQUENTIAL).add(a);
                    millis.get(s.name()).get(MANY_CLIENTS).add(b);
                }
                line.append(String.format("  %s a=%.1f ms b=%.1f ms", s.name(), a, b));
            }
            progress.println(line);
        }
        return new Results(config, millis);
    }

    /** Figure 3-2: one client, sequential calls; the client's socket is made before the clock starts. */
    private double sequential(RpcSystem system, byte[] args) throws IOException {
        try (RpcSystem.Client client = system.newClient()) {
            long start = System.nanoTime();
            for (int i = 0; i < config.calls(); i++) {
                client.call(args);
            }
            return (System.nanoTime() - start) / 1e6;
        }
    }

    /** Figure 3-3: a new client (socket, connection id, for TCP a connection) for every call. */
    private double manyClients(RpcSystem system, byte[] args) throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < config.clients(); i++) {
            try (RpcSystem.Client client = system.newClient()) {
                client.call(args);
            }
        }
        return (System.nanoTime() - start) / 1e6;
    }
}
