package dev.onceproof.bench.rpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.onceproof.bench.jmh.DedupBench;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.runtime.ReplyAcks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code onceproof bench rpc}: paper 3.1's two experiments (Figures 3-2 and 3-3) on loopback, with
 * SCMP-RPC, plain UDP and TCP side by side in one run; prints the tables and ratios and writes JSON.
 */
@Command(name = "rpc", mixinStandardHelpOptions = true,
        description = "Figures 3-2 and 3-3: SCMP-RPC vs UDP vs TCP null calls on loopback, side by side.",
        subcommands = DedupBench.class)
public final class RpcBenchCommand implements Callable<Integer> {

    @Option(names = "--calls", defaultValue = "1000",
            description = "Sequential calls of the one client in (a) (default ${DEFAULT-VALUE}, as the paper).")
    int calls;

    @Option(names = "--clients", defaultValue = "1000",
            description = "Clients making one call each in (b) (default ${DEFAULT-VALUE}, as the paper).")
    int clients;

    @Option(names = "--rounds", defaultValue = "101",
            description = "Measured rounds; each runs every system on both experiments. A round takes tens of"
                    + " milliseconds, so many are cheap, and on a shared machine medians of few rounds move a"
                    + " lot from run to run (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup", defaultValue = "10",
            description = "Unrecorded rounds first, for the JIT (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--payload", defaultValue = "0",
            description = "Argument bytes per call; the paper's null call has none (default ${DEFAULT-VALUE}).")
    int payload;

    @Option(names = "--threads", defaultValue = "1",
            description = "SCMP-RPC server threads; 1 receives, judges and runs the handler on one thread like"
                    + " the UDP and TCP baselines and SunRPC (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--also-threads", defaultValue = "0",
            description = "Also run SCMP-RPC with this many server threads as one more system (default: not).")
    int alsoThreads;

    @Option(names = "--reply-acks", defaultValue = "OFF",
            description = "How the measured SCMP-RPC clients send REPLY-ACKs: IMMEDIATE, DEFERRED, OFF. OFF"
                    + " (default) is the protocol the paper measures in its normal case: \"when there are no"
                    + " failures, only these two messages are needed ... although the client may optionally"
                    + " send a REPLY-ACK message as a hint\" (3.1). DEFERRED sends the hint only when a"
                    + " connection closes without another call, i.e. once per client in (b).")
    ReplyAcks replyAcks;

    @Option(names = "--also-reply-acks", split = ",", defaultValue = "DEFERRED",
            description = "Also run SCMP-RPC with REPLY-ACKs sent these ways (IMMEDIATE, DEFERRED, OFF), one"
                    + " more system each, reported beside the targets for information (default"
                    + " ${DEFAULT-VALUE}: the call command's default, which costs (b) one more datagram per client).")
    List<ReplyAcks> alsoReplyAcks = new ArrayList<>();

    @Option(names = "--no-auth", description = "Leave out the authenticated SCMP-RPC (wire v2) run, whose cost"
            + " against the unauthenticated one (wire v1) is otherwise reported as a ratio.")
    boolean noAuth;

    @Option(names = "--retransmit-ms", defaultValue = "200",
            description = "UDP and SCMP-RPC retransmission interval; TCP read timeout is tries x this"
                    + " (default ${DEFAULT-VALUE}).")
    long retransmitMillis;

    @Option(names = "--tries", defaultValue = "25",
            description = "Transmissions before a UDP or SCMP-RPC call gives up (default ${DEFAULT-VALUE}).")
    int tries;

    @Option(names = "--out",
            description = "JSON result file (default bench/results/rpc/rpc-figures-3-2-3-3.json, or"
                    + " ...-one-cpu.json when the JVM sees one CPU, as under taskset -c 1, so the two"
                    + " settings' results do not overwrite each other).")
    Path out;

    /** The default result file for a JVM that sees {@code cpus} processors. */
    static Path defaultOut(int cpus) {
        return Path.of(cpus == 1
                ? "bench/results/rpc/rpc-figures-3-2-3-3-one-cpu.json"
                : "bench/results/rpc/rpc-figures-3-2-3-3.json");
    }

    @Override
    public Integer call() throws Exception {
        if (out == null) {
            out = defaultOut(Runtime.getRuntime().availableProcessors());
        }
        if (alsoReplyAcks.contains(replyAcks) || alsoThreads == threads) {
            // Two systems of one name would pool their rounds and break every per-round ratio.
            System.err.println("error: --also-reply-acks " + alsoReplyAcks + " / --also-threads " + alsoThreads
                    + " repeats the measured system (--reply-acks " + replyAcks + ", --threads " + threads
                    + "); each extra system must differ from it");
            return 2;
        }
        RpcBench.Config config = new RpcBench.Config(calls, clients, rounds, warmup, payload);
        String loadBefore = dev.onceproof.bench.LoadAverage.now();
        List<RpcSystem> systems = new ArrayList<>();
        RpcBench.Results results;
        try {
            RetryPolicy policy = new RetryPolicy(retransmitMillis, tries);
            systems.add(new ScmpRpcSystem(threads, policy, replyAcks));
            systems.add(new UdpBaseline((int) retransmitMillis, tries));
            systems.add(new TcpBaseline((int) (retransmitMillis * tries)));
            if (alsoThreads > 0) {
                systems.add(new ScmpRpcSystem(alsoThreads, policy, replyAcks));
            }
            for (ReplyAcks mode : alsoReplyAcks) {
                systems.add(new ScmpRpcSystem(threads, policy, mode));
            }
            if (!noAuth) {
                // Every client of the run opens a fresh connection: one key each.
                systems.add(new ScmpRpcSystem(threads, policy, replyAcks, (clients + 1) * (rounds + warmup)));
            }
            for (RpcSystem s : systems) {
                System.out.println(s.name() + ": " + s.description());
            }
            results = new RpcBench(config, System.out).run(systems);
            for (RpcSystem s : systems) {
                if (s instanceof ScmpRpcSystem scmp) {
                    System.out.println(s.name() + " server: " + scmp.serverCounters());
                }
            }
        } finally {
            for (RpcSystem s : systems) {
                s.close();
            }
        }
        String scmp = systems.get(0).name();
        List<RpcBenchReport.Target> targets = List.of(
                new RpcBenchReport.Target(RpcBench.SEQUENTIAL, scmp, "UDP", "<=", 1.10),
                new RpcBenchReport.Target(RpcBench.MANY_CLIENTS, scmp, "UDP", "<=", 1.10),
                RpcBenchReport.Target.info(RpcBench.SEQUENTIAL, "TCP", scmp),
                new RpcBenchReport.Target(RpcBench.MANY_CLIENTS, "TCP", scmp, ">=", 3.0),
                // The ceiling of the last target: no protocol over UDP beats plain UDP, so TCP / SCMP-RPC
                // is at most TCP / UDP divided by SCMP-RPC / UDP.
                RpcBenchReport.Target.info(RpcBench.MANY_CLIENTS, "TCP", "UDP"));
        List<RpcBenchReport.Target> all = new ArrayList<>(targets);
        // Every extra SCMP-RPC variant against UDP too, for information.
        for (RpcSystem s : systems.subList(3, systems.size())) {
            all.add(RpcBenchReport.Target.info(RpcBench.SEQUENTIAL, s.name(), "UDP"));
            all.add(RpcBenchReport.Target.info(RpcBench.MANY_CLIENTS, s.name(), "UDP"));
        }
        if (!noAuth) {
            // The cost of authentication (issue 13): the same system with wire v2 over wire v1.
            String auth = systems.get(systems.size() - 1).name();
            all.add(RpcBenchReport.Target.info(RpcBench.SEQUENTIAL, auth, scmp));
            all.add(RpcBenchReport.Target.info(RpcBench.MANY_CLIENTS, auth, scmp));
        }
        RpcBenchReport report = new RpcBenchReport(results, all);
        report.print(System.out);

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("benchmark", "paper 3.1 Figures 3-2 and 3-3 on loopback");
        json.put("when", Instant.now().toString());
        json.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        json.put("cores", Runtime.getRuntime().availableProcessors());
        json.put("loadAverageBefore", loadBefore);
        json.put("loadAverageAfter", dev.onceproof.bench.LoadAverage.now());
        Map<String, String> descriptions = new LinkedHashMap<>();
        systems.forEach(s -> descriptions.put(s.name(), s.description()));
        json.put("systems", descriptions);
        json.putAll(report.json());
        Path target = out.toAbsolutePath();
        Files.createDirectories(target.getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(target.toFile(), json);
        Path png = target.resolveSibling(target.getFileName().toString().replaceFirst("\\.json$", "") + ".png");
        RpcBenchChart.write(results, png);
        System.out.println("wrote " + out + " and " + png);
        return 0;
    }


    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true"); // the chart is rendered off-screen
        System.exit(new CommandLine(new RpcBenchCommand()).execute(args));
    }
}
