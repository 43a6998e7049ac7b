package dev.onceproof.conformance.cli;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.Count;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.runtime.CausalUdpNode;
import dev.onceproof.causal.runtime.DeliveryAudit;
import dev.onceproof.causal.runtime.LoopbackGroup;
import dev.onceproof.steplog.StepLog;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code onceproof causal}: causal broadcast with Reactive Error Recovery over real UDP on loopback.
 * {@code group} runs a whole group in this JVM (a thread set and a socket per node) and prints
 * PASS/FAIL for causal order, once and complete; {@code node} is one node as its own process (what
 * the SIGKILL test starts).
 */
@Command(name = "causal", mixinStandardHelpOptions = true,
        description = "Causal broadcast with Reactive Error Recovery over UDP on loopback (Martori and Urso 2016).",
        subcommands = {CausalCommand.Group.class, CausalCommand.Node.class})
public final class CausalCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new CausalCommand()).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Options both subcommands share. */
    static class Protocol {
        @Option(names = "--loss", defaultValue = "0.05", description = "Probability a received datagram is dropped (default ${DEFAULT-VALUE}).")
        double loss;
        @Option(names = "--mode", defaultValue = "causal", description = "unordered | fifo | causal (default ${DEFAULT-VALUE}).")
        String mode;
        @Option(names = "--seed", defaultValue = "1", description = "Seed of the injected loss (default ${DEFAULT-VALUE}).")
        long seed;
        @Option(names = "--rate", defaultValue = "2000", description = "Events per second, whole group (default ${DEFAULT-VALUE}).")
        double rate;
        @Option(names = "--w-ms", defaultValue = "5", description = "RER wait w, ms (default ${DEFAULT-VALUE}).")
        long w;
        @Option(names = "--rto-ms", defaultValue = "20", description = "RER retransmission timeout, ms (default ${DEFAULT-VALUE}).")
        long rto;
        @Option(names = "--heartbeat-ms", defaultValue = "20", description = "Heartbeat after this long without broadcasting, ms; 0 = off, the paper's protocol (default ${DEFAULT-VALUE}).")
        long heartbeat;
    }

    @Command(name = "group", mixinStandardHelpOptions = true,
            description = {"Start N nodes on loopback, broadcast a workload, and check the delivery logs.",
                    "Prints a progress line each second, then PASS/FAIL for causal order, once and complete; exit 1 on FAIL."})
    static final class Group implements Callable<Integer> {
        @Option(names = "--nodes", defaultValue = "4", description = "Group size (default ${DEFAULT-VALUE}).")
        int nodes;
        @Option(names = "--events", defaultValue = "1000", description = "Events in all, spread round robin (default ${DEFAULT-VALUE}).")
        int events;
        @Option(names = "--deadline-s", defaultValue = "60", description = "Give up after this long (default ${DEFAULT-VALUE}).")
        long deadline;
        @Option(names = "--step-log", paramLabel = "DIR",
                description = "Write each node's spec steps to DIR/n1.jsonl, ... (trace validation: ./onceproof validate DIR/*.jsonl).")
        java.nio.file.Path stepLogs;
        @CommandLine.Mixin
        Protocol p = new Protocol();

        @Override
        public Integer call() throws Exception {
            PrintStream out = System.out;
            LoopbackGroup.Options o = new LoopbackGroup.Options(nodes, events, p.loss, Mode.fromSpecName(p.mode),
                    p.seed, p.rate, p.w, p.rto, p.heartbeat, TimeUnit.SECONDS.toMillis(deadline));
            out.printf("causal group: %d nodes, %d events, loss %.3f, mode %s, w %d ms, rto %d ms, heartbeat %d ms, seed %d%n",
                    nodes, events, p.loss, p.mode, p.w, p.rto, p.heartbeat, p.seed);
            if (stepLogs != null) {
                java.nio.file.Files.createDirectories(stepLogs);
            }
            LoopbackGroup.Result r = LoopbackGroup.run(o, out, stepLogs);
            DeliveryAudit.Result a = r.audit();
            out.printf("datagrams dropped by injected loss: %d; requests %d (+%d retries), resends %d, duplicates %d, heartbeats %d, refusals %s%n",
                    r.lost(), r.counts().get(Count.REQUEST_SENT), r.counts().get(Count.REQUEST_RETRY),
                    r.counts().get(Count.RESEND_SENT), r.counts().get(Count.DUPLICATE), r.counts().get(Count.HEARTBEAT_SENT),
                    r.refusals().values().stream().mapToLong(Long::longValue).sum());
            String order = Mode.fromSpecName(p.mode) == Mode.UNORDERED ? "order (not enforced in unordered mode)"
                    : Mode.fromSpecName(p.mode) == Mode.FIFO ? "FIFO order (FIFOOrder)" : "causal order (CausalOrder, FIFOOrder)";
            line(out, a.orderOk(), order + ": " + (a.fifo() + a.causal()) + " violations in " + r.delivered() + " deliveries");
            line(out, a.onceOk(), "once (NoDuplicateDelivery, NoCreation): " + a.duplicates() + " duplicates, " + a.forged() + " never sent");
            line(out, a.completeOk(), "complete (EventualDelivery): " + r.delivered() + "/" + r.expected() + " delivered in "
                    + r.elapsedMillis() + " ms");
            a.violations().forEach(v -> out.println("  " + v));
            if (stepLogs != null) {
                out.println("step logs in " + stepLogs + " (check them: ./onceproof validate " + stepLogs + "/*.jsonl)");
            }
            return a.ok() ? 0 : 1;
        }

        private static void line(PrintStream out, boolean ok, String what) {
            out.println((ok ? "PASS " : "FAIL ") + what);
        }
    }

    @Command(name = "node", mixinStandardHelpOptions = true,
            description = {"One node as its own process. Prints \"listening on HOST:PORT\", reads \"peers A1,A2,...\" (every node's",
                    "address, in index order) from stdin, broadcasts --events events at --rate / --nodes per second, prints",
                    "\"D <origin> <seq>\" for every delivery before the step's datagrams go out, and exits when stdin closes."})
    static final class Node implements Callable<Integer> {
        @Option(names = "--self", required = true, description = "This node's index, 0..n-1.")
        int self;
        @Option(names = "--nodes", required = true, description = "Group size.")
        int nodes;
        @Option(names = "--events", defaultValue = "250", description = "Events this node broadcasts (default ${DEFAULT-VALUE}).")
        int events;
        @Option(names = "--step-log", paramLabel = "FILE",
                description = "Write this node's spec steps to FILE, one write() per step before its datagrams leave, so a"
                        + " SIGKILL loses no line whose effect another node saw (trace validation).")
        java.nio.file.Path stepLog;
        @CommandLine.Mixin
        Protocol p = new Protocol();

        @Override
        public Integer call() throws Exception {
            PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
            long ms = TimeUnit.MILLISECONDS.toNanos(1);
            CausalConfig c = CausalConfig.of(nodes, NodeId.of(self), Mode.fromSpecName(p.mode), p.w * ms, p.rto * ms, p.heartbeat * ms);
            List<InetSocketAddress> any = new ArrayList<>();
            for (int k = 0; k < nodes; k++) {
                any.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            }
            StepLog steps = stepLog == null ? StepLog.OFF : StepLog.open(stepLog, CausalNode.stepLogHeader(c));
            try (steps; CausalUdpNode node = new CausalUdpNode(c, any, p.loss, p.seed * 1_000_003L + self,
                    e -> out.println("D " + e.origin().index() + " " + e.seq()), steps)) {
                out.println("listening on " + node.address().getHostString() + ":" + node.address().getPort());
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String peers = in.readLine();
                if (peers == null || !peers.startsWith("peers ")) {
                    System.err.println("causal node: expected \"peers A1,A2,...\" on stdin, got " + peers);
                    return 2;
                }
                String[] a = peers.substring(6).split(",");
                if (a.length != nodes) {
                    System.err.println("causal node: " + a.length + " peer addresses for a group of " + nodes);
                    return 2;
                }
                for (int k = 0; k < nodes; k++) {
                    int colon = a[k].lastIndexOf(':');
                    node.setPeer(k, new InetSocketAddress(a[k].substring(0, colon), Integer.parseInt(a[k].substring(colon + 1))));
                }
                node.start(2);
                Thread workload = new Thread(() -> broadcast(node, out), "workload");
                workload.setDaemon(true);
                workload.start();
                while (in.readLine() != null) {
                    // Runs until the parent closes stdin (or kills the process).
                }
                out.println("counters " + node.counters());
                return 0;
            }
        }

        private void broadcast(CausalUdpNode node, PrintStream out) {
            long period = (long) (1e9 * nodes / p.rate);
            long start = System.nanoTime();
            int issued = 0;
            while (issued < events) {
                long due = start + issued * period;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    continue;
                }
                if (node.broadcast(Payload.ofUtf8("n" + (self + 1) + "-" + issued)).outcome() == Outcome.ACCEPTED) {
                    issued++;
                } else {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
            }
            out.println("done broadcasting " + events);
        }
    }
}
