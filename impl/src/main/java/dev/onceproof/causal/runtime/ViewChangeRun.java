package dev.onceproof.causal.runtime;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.CausalState;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.Refusal;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.ViewChange;
import dev.onceproof.causal.wire.ViewMessage;
import dev.onceproof.steplog.StepLog;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * A view change over real UDP (specs/causal/CausalMembership.tla): three {@link CausalUdpNode}s on
 * loopback, n1 coordinating, datagrams lost on receipt with probability {@code loss} and, as often,
 * handled twice. All three
 * broadcast; then n3 either crashes (its core stops, its socket closes) and n1's failure detector
 * suspects it, or, alive, is suspected falsely by n1 and goes on broadcasting to the end. n1 and n2 report,
 * decide, forward and install the view without n3, and broadcast on; the run ends once the change
 * is over, each survivor delivered every survivor's events and its store is empty (garbage
 * collection went on past n3's row), or at the deadline.
 *
 * <p>With {@code logs} a directory, the nodes' step logs (n1.jsonl ...) and the coordinator's
 * (coordinator.jsonl) go there, for {@code ./onceproof validate}.
 */
public final class ViewChangeRun {

    static final NodeId X = NodeId.of(2);
    static final List<NodeId> SURVIVORS = List.of(NodeId.of(0), NodeId.of(1));
    /** A live n3's broadcasts once the change ended: enough to be refused, few enough to keep the logs short. */
    static final int EXCLUDED_AFTER_END = 5;

    /**
     * @param crash n3 crashes (else it is suspected falsely and stays up)
     * @param remove n3 is suspected (false: the control in which nobody removes the crashed n3)
     * @param loss each node drops this share of the datagrams it reads, and handles as many twice
     * @param before events each node broadcasts before the removal starts
     * @param after events each survivor broadcasts once it starts (and n3, if alive)
     * @param comeBack once the change ended, n3 comes back under its old id: a new process (a fresh
     *     core, its seqs from 1 again, a new socket the survivors are told of) that broadcasts
     *     {@link #EXCLUDED_AFTER_END} events past the agreed ones; the run then also waits until
     *     each survivor refused a datagram of it
     */
    public record Options(boolean crash, boolean remove, double loss, long seed, int before, int after,
            long deadlineMillis, boolean comeBack) {

        /** n3 crashes, or is suspected falsely, and is removed. */
        public static Options of(boolean crash, double loss, long seed, int before, int after) {
            return new Options(crash, true, loss, seed, before, after, 20_000, false);
        }
    }

    /** What happened: the survivors' audit, what each delivered of n3, the agreed set, the stores, refusals. */
    public record Result(Options options, boolean ended, DeliveryAudit.Result audit, Map<NodeId, List<Long>> deliveredOfX,
            SeqSet agreed, Map<NodeId, Integer> stored, long excludedRefusals, long collected, long lost,
            long duplicated, long elapsedMillis, List<Path> logs) {

        /** The view change ended and every property the run checks holds. */
        public boolean ok() {
            return ended && audit.orderOk() && audit.onceOk() && audit.completeOk() && problems().isEmpty();
        }

        /** RemovedAgreement and ExcludedNotDelivered from the logs, and GcContinues from the stores. */
        public List<String> problems() {
            List<String> out = new ArrayList<>();
            List<Long> agreedSeqs = new ArrayList<>(agreed.seqs());
            deliveredOfX.forEach((k, v) -> {
                if (!v.equals(agreedSeqs)) {
                    out.add(k + " delivered " + v + " of " + X + ", the flush agreed on " + agreedSeqs);
                }
            });
            stored.forEach((k, v) -> {
                if (v != 0) {
                    out.add(k + " still stores " + v + " events");
                }
            });
            return out;
        }
    }

    private ViewChangeRun() {
    }

    /** A run on real cores. */
    public static Result run(Options o, Path logs) throws SocketException, InterruptedException {
        return run(o, logs, CausalNode::new, (to, m) -> false, nodes -> true);
    }

    /**
     * A run whose survivors' cores {@code core} builds, in which a node drops the view-change
     * messages {@code hold} names (with the receiving node) until {@code release} first holds of
     * the three nodes (checked while the run waits), so a test can order the reports: make the
     * freeze matter, or make one survivor report more than the other so that the flush forwards.
     */
    public static Result run(Options o, Path logs, CausalUdpNode.Core core, BiPredicate<NodeId, ViewMessage> hold,
            Predicate<List<CausalUdpNode>> release) throws SocketException, InterruptedException {
        int n = 3;
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        Map<NodeId, List<EventId>> delivered = new LinkedHashMap<>();
        List<InetSocketAddress> any = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            delivered.put(NodeId.of(k), Collections.synchronizedList(new ArrayList<>()));
            any.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        }
        List<StepLog> files = new ArrayList<>();
        List<Path> paths = new ArrayList<>();
        List<CausalUdpNode> nodes = new ArrayList<>();
        boolean[] held = {true};
        try {
            StepLog coordinatorLog = StepLog.OFF;
            if (logs != null) {
                for (int k = 0; k < n; k++) {
                    open(files, paths, logs.resolve(NodeId.of(k).specName() + ".jsonl"),
                            CausalNode.stepLogHeader(config(n, NodeId.of(k), ms)));
                }
                coordinatorLog = open(files, paths, logs.resolve("coordinator.jsonl"),
                        ViewChange.stepLogHeader(config(n, NodeId.of(0), ms)));
            }
            // The detector waits 300 ms: fifteen heartbeat intervals, so a live node is not suspected
            // for lost heartbeats; only n3 is suspectable, so the run removes n3 whatever the timing.
            ViewOptions view = ViewOptions.manual(20 * ms).withCoordinatorLog(coordinatorLog)
                    .withDetector(o.crash() && o.remove() ? Set.of(X) : Set.of(), o.crash() && o.remove() ? 300 * ms : 0);
            for (int k = 0; k < n; k++) {
                NodeId id = NodeId.of(k);
                List<EventId> log = delivered.get(id);
                nodes.add(new CausalUdpNode(config(n, id, ms), any, o.loss(), o.seed() * 1_000_003L + k,
                        e -> log.add(e.id()), logs == null ? StepLog.OFF : files.get(k),
                        view.withHold(m -> held[0] && hold.test(id, m)),
                        id.equals(X) ? CausalNode::new : core).duplicating(o.loss()));
            }
            LoopbackGroup.connect(nodes);
            long start = System.nanoTime();
            long deadline = start + TimeUnit.MILLISECONDS.toNanos(o.deadlineMillis());
            for (int e = 0; e < o.before(); e++) {
                for (int k = 0; k < n; k++) {
                    broadcast(nodes.get(k), "n" + (k + 1) + "-" + e, deadline);
                }
                Thread.sleep(2);
            }
            CausalUdpNode x = nodes.get(X.index());
            CausalUdpNode coordinator = nodes.get(0);
            if (o.crash()) {
                x.crash();
            } else if (o.remove() && !coordinator.suspect(X)) {
                throw new IllegalStateException("n1 could not start the removal of " + X);
            }
            for (int e = 0; e < o.after(); e++) {
                for (int k = 0; k < n; k++) {
                    if (k != X.index() || !o.crash()) {
                        broadcast(nodes.get(k), "n" + (k + 1) + "-after-" + e, deadline);
                    }
                }
                Thread.sleep(2);
            }
            long sent = (long) (o.before() + o.after()) * SURVIVORS.size();
            boolean ended = false;
            long nextX = System.nanoTime();
            int excludedAfterEnd = 0;
            CausalUdpNode back = null;
            long backSent = 0;
            long[] refusedBefore = new long[SURVIVORS.size()];
            while (System.nanoTime() < deadline) {
                if (held[0] && release.test(nodes)) {
                    held[0] = false;
                }
                ended = !coordinator.members().contains(X) && coordinator.flushing().isEmpty();
                if (o.comeBack() && ended && back == null) {
                    x.close();
                    back = new CausalUdpNode(config(n, X, ms), any, o.loss(), o.seed() * 1_000_003L + 7, e -> { },
                            StepLog.OFF, ViewOptions.manual(20 * ms), CausalNode::new).duplicating(o.loss());
                    nodes.set(X.index(), back);
                    for (int k = 0; k < n; k++) {
                        nodes.get(k).setPeer(X.index(), back.address());
                        back.setPeer(k, nodes.get(k).address());
                    }
                    back.start(2);
                    for (int k = 0; k < SURVIVORS.size(); k++) {
                        refusedBefore[k] = nodes.get(k).counters().refused(Refusal.EXCLUDED);
                    }
                }
                if (back != null && backSent < coordinator.agreedOf(X).prefix() + EXCLUDED_AFTER_END) {
                    broadcast(back, "n3-again-" + backSent++, deadline);
                }
                if (back == null && !o.crash() && System.nanoTime() - nextX >= 0 && excludedAfterEnd < EXCLUDED_AFTER_END) {
                    // n3, alive and excluded, broadcasts on (every 5 ms until a few after the change ended):
                    // the survivors refuse what the flush did not agree on.
                    broadcast(x, "n3-excluded", deadline);
                    nextX = System.nanoTime() + 5 * ms;
                    excludedAfterEnd += ended ? 1 : 0;
                }
                boolean backRefused = !o.comeBack() || back != null;
                for (int k = 0; k < SURVIVORS.size() && back != null; k++) {
                    backRefused &= nodes.get(k).counters().refused(Refusal.EXCLUDED) > refusedBefore[k];
                }
                if (ended && backRefused && done(nodes, delivered, sent)) {
                    break;
                }
                Thread.sleep(1);
            }
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            Map<NodeId, Integer> stored = new LinkedHashMap<>();
            long excluded = 0;
            long collected = 0;
            long lost = 0;
            for (NodeId s : SURVIVORS) {
                CausalUdpNode a = nodes.get(s.index());
                stored.put(s, a.state().store().size());
                excluded += a.counters().refused(Refusal.EXCLUDED);
                collected += a.counters().get(dev.onceproof.causal.Count.COLLECTED);
            }
            SeqSet agreed = coordinator.agreedOf(X);
            nodes.forEach(CausalUdpNode::close);
            x.close();
            long duplicated = 0;
            for (CausalUdpNode a : nodes) {
                lost += a.lost();
                duplicated += a.duplicated();
            }
            Map<NodeId, List<EventId>> copy = new LinkedHashMap<>();
            delivered.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            Map<NodeId, List<Long>> ofX = new LinkedHashMap<>();
            for (NodeId s : SURVIVORS) {
                ofX.put(s, copy.get(s).stream().filter(e -> e.origin().equals(X)).map(EventId::seq).sorted().toList());
            }
            DeliveryAudit.Result audit = DeliveryAudit.check(Mode.CAUSAL, copy, Set.copyOf(SURVIVORS));
            return new Result(o, ended, audit, ofX, agreed, stored, excluded, collected, lost, duplicated, elapsed, paths);
        } finally {
            nodes.forEach(CausalUdpNode::close);
            files.forEach(StepLog::close);
        }
    }

    private static StepLog open(List<StepLog> files, List<Path> paths, Path f, StepLog.Header header) {
        StepLog log = StepLog.open(f, header);
        files.add(log);
        paths.add(f);
        return log;
    }

    /** w 5 ms, RTO 20 ms, heartbeat 20 ms, as the causal UDP trace run. */
    private static CausalConfig config(int n, NodeId self, long ms) {
        return CausalConfig.of(n, self, Mode.CAUSAL, 5 * ms, 20 * ms, 20 * ms);
    }

    private static void broadcast(CausalUdpNode a, String payload, long deadline) throws InterruptedException {
        // A refusal is a full store (garbage collection catching up): try again, until the deadline.
        while (a.broadcast(Payload.ofUtf8(payload)).outcome() != Outcome.ACCEPTED && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    /** Every survivor installed, delivered every survivor's events and emptied its store. */
    private static boolean done(List<CausalUdpNode> nodes, Map<NodeId, List<EventId>> delivered, long sent) {
        for (NodeId s : SURVIVORS) {
            CausalState st = nodes.get(s.index()).state();
            long fromSurvivors = delivered.get(s).stream().filter(e -> !e.origin().equals(X)).count();
            if (st.view().contains(X) || fromSurvivors < sent || !st.store().isEmpty()) {
                return false;
            }
        }
        return true;
    }
}
