package dev.onceproof.causal;

import dev.onceproof.causal.runtime.CausalUdpNode;
import dev.onceproof.causal.runtime.ViewOptions;
import dev.onceproof.causal.wire.ViewMessage;
import dev.onceproof.steplog.StepLog;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * impl's ViewRestartOverUdpTest run (four CausalUdpNodes on loopback, 5% of datagrams lost and 5%
 * handled twice; n4 crashes, n1 suspects it and holds n3's reports, so the flush cannot decide while
 * n1 lives; then {@code second} crashes mid-flush) with every step log written: n1.jsonl ... n4.jsonl
 * (the cores) and coordinator-n1.jsonl ... coordinator-n3.jsonl (each member's coordinator steps:
 * n1's as first coordinator, a survivor's once it takes over), the coordinator logs under
 * ViewChange.restartStepLogHeader, so {@code ./onceproof validate} checks them against
 * CausalMembershipRestart. Every survivor but n4 holds back n4's events above seq 3 until it reported
 * on the restarted round (two nodes), so they arrive frozen after the last report.
 */
final class UdpRestartRun {

    static final int N = 4;
    static final NodeId N1 = NodeId.of(0);
    static final NodeId N2 = NodeId.of(1);
    static final NodeId N3 = NodeId.of(2);
    static final NodeId N4 = NodeId.of(3);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long DELAY_ABOVE = 3;

    /** What a run left: done (both survivors installed the view of two, delivered all, stored none), the log files. */
    record Result(boolean done, long takeovers, long restarts, Map<NodeId, List<EventId>> delivered, List<Path> logs) {
    }

    private UdpRestartRun() {
    }

    /**
     * @param second the node crashed mid-flush: n1 (the coordinator; n2 takes over) or n3 (a survivor
     *     the flush waits for; n1 restarts)
     * @param events broadcasts per node before and after (10 in impl's test; fewer keep the logs short)
     * @param n2Core n2's core (a control passes a broken one)
     */
    static Result run(Path dir, NodeId second, int events, long deadlineMillis, CausalUdpNode.Core n2Core)
            throws Exception {
        return run(dir, second, events, deadlineMillis, n2Core, Scenario.MID_FLUSH);
    }

    /** When and how the second failure comes. */
    enum Scenario {
        /** n1 holds n3's reports, so the flush on n4 cannot decide; {@code second} crashes once the survivors it needs reported. */
        MID_FLUSH,
        /**
         * impl's aCoordinatorThatMissedTheChange...: n4 stays up, suspected by n1 alone; n2 drops
         * n1's flush requests, so it never hears of the flush on n4; n1 crashes once n3 reported, and
         * n2 takes over with a flush on n1 alone, which n3 answers with its report on n4 (how
         * validate/causal/udp-missed-takeover-seed17 was made).
         */
        MISSED,
        /**
         * n1 takes every report and decides the removal of n4; n2 drops n1's decisions, so nobody
         * installs; n1 crashes once it decided, and n2 takes over and flushes {n1, n4}: the decision
         * on n4 is taken again (the spec's restart after a decision; CausalMerge's Suspect waiting
         * for the survivors' lines of the superseded decision).
         */
        AFTER_DECISION
    }

    static Result run(Path dir, NodeId second, int events, long deadlineMillis, CausalUdpNode.Core n2Core,
            Scenario scenario) throws Exception {
        boolean missed = scenario == Scenario.MISSED;
        boolean decided = scenario == Scenario.AFTER_DECISION;
        Map<NodeId, List<EventId>> delivered = new LinkedHashMap<>();
        List<InetSocketAddress> any = new ArrayList<>();
        for (int k = 0; k < N; k++) {
            delivered.put(NodeId.of(k), Collections.synchronizedList(new ArrayList<>()));
            any.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        }
        ViewOptions view = ViewOptions.manual(20 * MS).withDetector(missed ? Set.of(N1) : Set.of(second, N4), 500 * MS);
        List<CausalUdpNode> nodes = new ArrayList<>();
        List<StepLog> files = new ArrayList<>();
        List<Path> paths = new ArrayList<>();
        try {
            for (int k = 0; k < N; k++) {
                NodeId id = NodeId.of(k);
                CausalConfig c = config(id);
                Path f = dir.resolve(id.specName() + ".jsonl");
                StepLog log = StepLog.open(f, CausalNode.stepLogHeader(c));
                files.add(log);
                paths.add(f);
                ViewOptions v = view;
                if (k < 3) { // n4 never coordinates: it is the first to go
                    Path cf = dir.resolve("coordinator-" + id.specName() + ".jsonl");
                    StepLog cl = StepLog.open(cf, ViewChange.restartStepLogHeader(config(N1)));
                    files.add(cl);
                    paths.add(cf);
                    v = v.withCoordinatorLog(cl);
                }
                if (k == 0 && !decided) {
                    v = v.withHold(m -> m instanceof ViewMessage.Report && m.from().equals(N3));
                } else if (k == 1 && missed) {
                    v = v.withHold(m -> m instanceof ViewMessage.Flush && m.from().equals(N1));
                } else if (k == 1 && decided) {
                    v = v.withHold(m -> m instanceof ViewMessage.Decide && m.from().equals(N1));
                }
                List<EventId> d = delivered.get(id);
                CausalUdpNode a = new CausalUdpNode(c, any, 0.05, 17 * 1_000_003L + k, e -> d.add(e.id()), log, v,
                        k == 1 ? n2Core : CausalNode::new).duplicating(0.05);
                if (k != 3) {
                    a.delaying(UdpRestartRun::late, () -> a.reportedOn().size() == 2);
                }
                nodes.add(a);
            }
            for (CausalUdpNode a : nodes) {
                for (int k = 0; k < N; k++) {
                    a.setPeer(k, nodes.get(k).address());
                }
            }
            nodes.forEach(a -> a.start(2));
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMillis);
            for (int e = 0; e < events; e++) {
                for (CausalUdpNode a : nodes) {
                    broadcast(a, "before-" + e, deadline);
                }
                Thread.sleep(2);
            }
            if (missed) {
                if (!nodes.get(0).suspect(N4)) {
                    throw new IllegalStateException("n1 could not start the removal of n4");
                }
            } else {
                nodes.get(3).crash();
            }
            List<CausalUdpNode> waited = missed ? List.of(nodes.get(2)) : second.equals(N1) ? List.of(nodes.get(1), nodes.get(2)) : List.of(nodes.get(1));
            long until = System.nanoTime() + 10_000 * MS;
            while (decided ? nodes.get(0).members().contains(N4) : !waited.stream().allMatch(CausalUdpNode::hasReported)) {
                if (System.nanoTime() > until) {
                    throw new AssertionError("timed out waiting until the flush on n4 reached its survivors");
                }
                Thread.sleep(2);
            }
            nodes.get(second.index()).crash();
            List<NodeId> survivors = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                if (k != second.index()) {
                    survivors.add(NodeId.of(k));
                }
            }
            for (int e = 0; e < events; e++) {
                for (NodeId s : survivors) {
                    broadcast(nodes.get(s.index()), "after-" + e, deadline);
                }
                Thread.sleep(2);
            }
            boolean done = false;
            while (!done && System.nanoTime() < deadline) {
                done = true;
                for (NodeId s : survivors) {
                    CausalUdpNode a = nodes.get(s.index());
                    long fromSurvivors;
                    synchronized (delivered.get(s)) {
                        fromSurvivors = delivered.get(s).stream().filter(x -> survivors.contains(x.origin())).count();
                    }
                    done &= a.memberView().size() == 2 && fromSurvivors == 4L * events && a.state().store().isEmpty();
                }
                Thread.sleep(5);
            }
            long takeovers = nodes.stream().mapToLong(CausalUdpNode::takeovers).sum();
            long restarts = nodes.stream().mapToLong(CausalUdpNode::restarts).sum();
            nodes.forEach(CausalUdpNode::close);
            Map<NodeId, List<EventId>> copy = new LinkedHashMap<>();
            delivered.forEach((k, l) -> copy.put(k, List.copyOf(l)));
            return new Result(done, takeovers, restarts, copy, paths);
        } finally {
            nodes.forEach(CausalUdpNode::close);
            files.forEach(StepLog::close);
        }
    }

    static List<Long> seqsOf(List<EventId> log, NodeId x) {
        return new ArrayList<>(new TreeSet<>(log.stream().filter(e -> e.origin().equals(x)).map(EventId::seq).toList()));
    }

    private static boolean late(CausalMessage m) {
        Event e = m instanceof CausalMessage.Data d ? d.event() : m instanceof CausalMessage.Resend r ? r.event() : null;
        return e != null && e.origin().equals(N4) && e.seq() > DELAY_ABOVE;
    }

    /** w 5 ms, RTO 20 ms, heartbeat 20 ms, as impl's test. */
    private static CausalConfig config(NodeId self) {
        return CausalConfig.of(N, self, Mode.CAUSAL, 5 * MS, 20 * MS, 20 * MS);
    }

    private static void broadcast(CausalUdpNode a, String payload, long deadline) throws InterruptedException {
        while (a.broadcast(Payload.ofUtf8(payload)).outcome() != Outcome.ACCEPTED && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }
}
