package dev.onceproof.causal;

import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * A seeded world with a join under a new id (specs/causal/CausalJoin.tla, issue 21), each node with
 * its step log: n1 and n2 are members, n3 a spare. Broadcasts (at most two per node), receipts of a
 * random datagram on its way (kept there a third of the time: a duplicate), heartbeats and
 * collection interleave with the join: n1 hands n3 its state at a random point (n3 starts from it,
 * and the copies sent to n3 before wait in the network, as the spec's sends to a spare do), and n2
 * installs the join at a later random point, refusing n3's events until then. Then the fair end: n2
 * installs if it has not, every datagram is received, and every missing event is asked of its
 * origin (ExpireWait) and served, until nothing moves. A seed names the same run every time.
 */
final class JoinWorldRun {

    static final NodeId N1 = NodeId.of(0), N2 = NodeId.of(1), N3 = NodeId.of(2);

    private JoinWorldRun() {
    }

    /** The run's logs (n1.jsonl, n2.jsonl, n3.jsonl in dir) and each node's delivered prefix at the end. */
    record Result(List<Path> logs, List<VectorClock> prefixes) {
    }

    /** A datagram on its way. */
    private record Wire(NodeId to, CausalMessage message) {
    }

    static Result run(Path dir, int seed, CausalWorldRun.NodeFactory factory) {
        Random rnd = new Random(seed);
        ManualTicker t = new ManualTicker(0);
        List<StepLog> logs = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        CausalNode[] nodes = new CausalNode[3];
        try {
            for (int k = 0; k < 3; k++) {
                CausalConfig c = CausalConfig.of(3, NodeId.of(k), Mode.CAUSAL, 5, 20, 0);
                Path f = dir.resolve(c.self().specName() + ".jsonl");
                StepLog log = StepLog.open(f, CausalNode.stepLogHeader(c));
                logs.add(log);
                files.add(f);
                nodes[k] = factory.make(c, t, log);
                nodes[k].spare(N3);
            }
            List<Wire> net = new ArrayList<>();
            List<TreeSet<EventId>> delivered = List.of(new TreeSet<>(), new TreeSet<>(), new TreeSet<>());
            int[] broadcasts = new int[3];
            JoinState handed = null;
            boolean installed = false;
            for (int step = 0; step < 40; step++) {
                int pick = rnd.nextInt(10);
                boolean joined = handed != null;
                if (!joined && pick == 0) {
                    handed = nodes[0].join(N3);
                    nodes[2].startFrom(handed);
                } else if (joined && !installed && pick == 1) {
                    nodes[1].installJoin(N3, N1, handed.prefix());
                    installed = true;
                } else if (pick <= 3) {
                    int k = rnd.nextInt(joined ? 3 : 2);
                    if (broadcasts[k] < 2) {
                        broadcasts[k]++;
                        take(nodes[k].broadcast(Payload.ofUtf8("e" + k)), k, net, delivered);
                    }
                } else if (pick <= 7 && !net.isEmpty()) {
                    receive(nodes, net, net.get(rnd.nextInt(net.size())), rnd.nextInt(3) == 0, delivered, joined);
                } else if (pick == 8) {
                    int k = rnd.nextInt(joined ? 3 : 2);
                    take(nodes[k].sendHeartbeat(), k, net, delivered);
                } else {
                    nodes[rnd.nextInt(joined ? 3 : 2)].collectGarbage();
                }
            }
            if (handed == null) {
                handed = nodes[0].join(N3);
                nodes[2].startFrom(handed);
            }
            if (!installed) {
                nodes[1].installJoin(N3, N1, handed.prefix());
            }
            for (int round = 0; round < 20; round++) {
                boolean moved = false;
                if (round < 3) {
                    for (int k = 0; k < 3; k++) { // reveals what a refused or lost copy left missing
                        take(nodes[k].sendHeartbeat(), k, net, delivered);
                    }
                }
                while (!net.isEmpty()) {
                    receive(nodes, net, net.get(0), false, delivered, true);
                    moved = true;
                }
                for (int k = 0; k < 3; k++) {
                    for (EventId d : new ArrayList<>(nodes[k].state().missing().keySet())) {
                        Step s = nodes[k].expireWait(d);
                        if (s.outcome() == Outcome.ACCEPTED) {
                            take(s, k, net, delivered);
                            moved = true;
                        }
                    }
                }
                if (!moved) {
                    break;
                }
            }
            List<VectorClock> prefixes = new ArrayList<>();
            for (CausalNode node : nodes) {
                prefixes.add(node.prefixClock());
            }
            return new Result(files, prefixes);
        } finally {
            logs.forEach(StepLog::close);
        }
    }

    /** Receive one datagram (kept on its way when {@code keep}), then deliver what it allows. */
    private static void receive(CausalNode[] nodes, List<Wire> net, Wire w, boolean keep,
                                List<TreeSet<EventId>> delivered, boolean joined) {
        int k = w.to().index();
        if (k == 2 && !joined) {
            return; // a spare takes no step before it joins: the copy waits
        }
        if (!keep) {
            net.remove(w);
        }
        take(nodes[k].handle(w.message()), k, net, delivered);
    }

    private static void take(Step s, int k, List<Wire> net, List<TreeSet<EventId>> delivered) {
        s.delivered().forEach(e -> delivered.get(k).add(e.id()));
        s.sends().forEach(o -> net.add(new Wire(o.to(), o.message())));
    }
}
