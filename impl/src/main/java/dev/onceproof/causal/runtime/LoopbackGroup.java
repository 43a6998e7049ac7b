package dev.onceproof.causal.runtime;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.Count;
import dev.onceproof.causal.Counters;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.Refusal;
import dev.onceproof.causal.Step;
import dev.onceproof.steplog.StepLog;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A group of {@link CausalUdpNode}s in this JVM, each with its own loopback socket and threads,
 * driven by a workload of {@code events} broadcasts spread round robin over the nodes at
 * {@code rate} events per second; then it waits until every node has delivered every event (or the
 * deadline passes) and audits the delivery logs ({@link DeliveryAudit}).
 */
public final class LoopbackGroup {

    /** What to run. Times in milliseconds. */
    public record Options(int nodes, int events, double loss, Mode mode, long seed, double rate,
            long wMillis, long rtoMillis, long heartbeatMillis, long deadlineMillis) {

        public Options {
            if (nodes < 2 || events < 0 || rate <= 0 || deadlineMillis <= 0) {
                throw new IllegalArgumentException("need nodes >= 2, events >= 0, rate > 0, deadline > 0; got "
                        + nodes + ", " + events + ", " + rate + ", " + deadlineMillis);
            }
        }

        public static Options of(int nodes, int events, double loss) {
            return new Options(nodes, events, loss, Mode.CAUSAL, 1, 2000, 5, 20, 20, 60_000);
        }
    }

    /** The run's outcome: the audit, the summed counters, and what the network did. */
    public record Result(Options options, DeliveryAudit.Result audit, Map<Count, Long> counts,
            Map<Refusal, Long> refusals, long lost, long elapsedMillis, long delivered, long expected) {
    }

    private LoopbackGroup() {
    }

    public static Result run(Options o, PrintStream progress) throws SocketException, InterruptedException {
        return run(o, progress, null);
    }

    /**
     * As above; with {@code stepLogs} a directory, each node writes its steps to n1.jsonl, n2.jsonl,
     * ... there (trace validation: {@code ./onceproof validate DIR/*.jsonl}).
     */
    public static Result run(Options o, PrintStream progress, Path stepLogs) throws SocketException,
            InterruptedException {
        int n = o.nodes();
        Map<NodeId, List<EventId>> logs = new LinkedHashMap<>();
        List<InetSocketAddress> any = new ArrayList<>();
        InetAddress lo = InetAddress.getLoopbackAddress();
        for (int k = 0; k < n; k++) {
            logs.put(NodeId.of(k), Collections.synchronizedList(new ArrayList<>()));
            any.add(new InetSocketAddress(lo, 0));
        }
        List<CausalUdpNode> nodes = new ArrayList<>();
        List<StepLog> stepLogFiles = new ArrayList<>();
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        try {
            for (int k = 0; k < n; k++) {
                CausalConfig c = CausalConfig.of(n, NodeId.of(k), o.mode(), o.wMillis() * ms, o.rtoMillis() * ms,
                        o.heartbeatMillis() * ms);
                List<EventId> log = logs.get(NodeId.of(k));
                StepLog steps = StepLog.OFF;
                if (stepLogs != null) {
                    steps = StepLog.open(stepLogs.resolve(NodeId.of(k).specName() + ".jsonl"),
                            CausalNode.stepLogHeader(c));
                    stepLogFiles.add(steps);
                }
                nodes.add(new CausalUdpNode(c, any, o.loss(), o.seed() * 1_000_003L + k, e -> log.add(e.id()), steps));
            }
            connect(nodes);
            long start = System.nanoTime();
            long deadline = start + TimeUnit.MILLISECONDS.toNanos(o.deadlineMillis());
            long expected = (long) o.events() * n;
            long nextReport = start;
            long periodNanos = (long) (1e9 / o.rate());
            int issued = 0;
            while (System.nanoTime() < deadline) {
                long now = System.nanoTime();
                while (issued < o.events() && now - start >= issued * periodNanos) {
                    int k = issued % n;
                    Step s = nodes.get(k).broadcast(Payload.ofUtf8("n" + (k + 1) + "-" + issued));
                    if (s.outcome() != Outcome.ACCEPTED) {
                        break; // store full: try again on the next pass, when garbage collection caught up
                    }
                    issued++;
                }
                long delivered = logs.values().stream().mapToLong(List::size).sum();
                if (now >= nextReport || (issued == o.events() && delivered >= expected)) {
                    progress.printf("issued %d/%d, delivered %d/%d (%.1f%%), requests %d, lost datagrams %d, %.1fs%n",
                            issued, o.events(), delivered, expected, expected == 0 ? 100.0 : 100.0 * delivered / expected,
                            sum(nodes, Count.REQUEST_SENT) + sum(nodes, Count.REQUEST_RETRY),
                            nodes.stream().mapToLong(CausalUdpNode::lost).sum(), (now - start) / 1e9);
                    nextReport = now + TimeUnit.SECONDS.toNanos(1);
                }
                if (issued == o.events() && delivered >= expected) {
                    break;
                }
                Thread.sleep(0, 200_000);
            }
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            nodes.forEach(CausalUdpNode::close);
            Map<NodeId, List<EventId>> copy = new LinkedHashMap<>();
            logs.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            DeliveryAudit.Result audit = DeliveryAudit.check(o.mode(), copy, new LinkedHashSet<>(logs.keySet()));
            Map<Count, Long> counts = new EnumMap<>(Count.class);
            Map<Refusal, Long> refusals = new EnumMap<>(Refusal.class);
            for (CausalUdpNode a : nodes) {
                Counters c = a.counters();
                c.counts().forEach((key, v) -> counts.merge(key, v, Long::sum));
                c.refusals().forEach((key, v) -> refusals.merge(key, v, Long::sum));
            }
            long delivered = copy.values().stream().mapToLong(List::size).sum();
            return new Result(o, audit, counts, refusals, nodes.stream().mapToLong(CausalUdpNode::lost).sum(),
                    elapsed, delivered, expected);
        } finally {
            nodes.forEach(CausalUdpNode::close);
            stepLogFiles.forEach(StepLog::close);
        }
    }

    /** Tells every node where each one is bound and starts each with two receiver threads. */
    static void connect(List<CausalUdpNode> nodes) {
        for (CausalUdpNode a : nodes) {
            for (int k = 0; k < nodes.size(); k++) {
                a.setPeer(k, nodes.get(k).address());
            }
        }
        nodes.forEach(a -> a.start(2));
    }

    private static long sum(List<CausalUdpNode> nodes, Count c) {
        return nodes.stream().mapToLong(a -> a.counters().get(c)).sum();
    }
}
