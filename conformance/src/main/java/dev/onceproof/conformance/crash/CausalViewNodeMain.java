package dev.onceproof.conformance.crash;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.ViewChange;
import dev.onceproof.causal.runtime.CausalUdpNode;
import dev.onceproof.causal.runtime.ViewOptions;
import dev.onceproof.causal.wire.ViewMessage;
import dev.onceproof.steplog.StepLog;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * One node of a causal group as a JVM of its own, taking part in view changes
 * (specs/causal/CausalMembership.tla), for the SIGKILL view-change run ({@code CausalViewSigkillTest}):
 * a {@link CausalUdpNode} on the address given for it, its step log on, n1 also the coordinator
 * (with its failure detector and its own step log). Time constants as {@code ViewChangeRun}'s: w 5 ms,
 * RTO 20 ms, heartbeat 20 ms, view-change resends every 20 ms.
 *
 * <p>It broadcasts {@code --before} events at {@code --rate} per second, then waits until it has
 * installed a view without some node and broadcasts {@code --after} more, so that the run has
 * traffic, and garbage collection, after the removal. It prints {@code D <origin> <seq>} for every
 * delivery (in the delivery callback, under the node's lock), {@code reported} (seen within a few
 * ms of its FlushReport, once its own broadcasts are out), {@code installed <view>} and {@code done}. It prints {@code listening on HOST:PORT} once bound and starts on a {@code go} line on
 * stdin (so that the group starts together, not a JVM start apart, and n1's detector does not
 * suspect a node still starting); on a {@code status} line it prints
 * {@code status stored=<n> view=<view> takeovers=<t> restarts=<r>} (the view without spaces; t and r
 * count the takeovers of the coordinator's role and the flushes restarted for a larger set). It exits when stdin closes.
 *
 * <p>Usage: {@code CausalViewNodeMain --self K --peers H:P,H:P,... --step-log FILE [--coordinator-log
 * FILE] [--before N] [--after N] [--rate R] [--loss L] [--seed S] [--suspect K --suspect-after-ms MS]
 * [--delay-above SEQ] [--suspectable K,K,... --hold-reports-from K --installed-size S --no-restart]}.
 * {@code --suspect} is the node the coordinator's detector may suspect (by index); {@code
 * --delay-above SEQ} makes this node's network hold back that node's events above SEQ until this
 * node has reported on a view change (they then arrive frozen).
 *
 * <p>For the restart runs ({@code CausalViewRestartSigkillTest}, specs/causal/CausalMembershipRestart.tla):
 * {@code --suspectable} the nodes every detector may suspect (the coordinator too, so that a
 * survivor takes over from it); {@code --hold-reports-from K} makes this node drop K's reports (the
 * coordinator's flush then waits for K while it lives, so a second kill lands mid-flush); {@code
 * --installed-size S} makes the workload wait for a view of S members (default n - 1) before its
 * later broadcasts; {@code --no-restart} runs the runtime without restarts (the control).
 */
public final class CausalViewNodeMain {

    private CausalViewNodeMain() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, CausalNode::new));
    }

    /** The node over the core {@code core} builds (a control passes a broken one). */
    public static int run(String[] args, CausalUdpNode.Core core) throws Exception {
        Args a = Args.parse(args);
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        int n = a.peers.size();
        NodeId self = NodeId.of(a.self);
        CausalConfig c = CausalConfig.of(n, self, Mode.CAUSAL, 5 * ms, 20 * ms, 20 * ms);
        StepLog steps = StepLog.open(a.stepLog, CausalNode.stepLogHeader(c));
        // The restart runs (--suspectable) log under the restart header, so validation checks them
        // against CausalMembershipRestart (the coordinator's role may pass to a survivor); the
        // one-removal runs keep CausalMembership's.
        CausalConfig group = CausalConfig.of(n, NodeId.of(0), Mode.CAUSAL, 5 * ms, 20 * ms, 20 * ms);
        StepLog coordinatorLog = a.coordinatorLog == null ? StepLog.OFF
                : StepLog.open(a.coordinatorLog, a.suspectable.isEmpty() ? ViewChange.stepLogHeader(group)
                        : ViewChange.restartStepLogHeader(group));
        ViewOptions view = ViewOptions.manual(20 * ms).withCoordinatorLog(coordinatorLog);
        if (a.suspect >= 0) {
            view = view.withDetector(Set.of(NodeId.of(a.suspect)), a.suspectAfterMs * ms);
        }
        if (!a.suspectable.isEmpty()) {
            view = view.withDetector(a.suspectable, a.suspectAfterMs * ms);
        }
        if (a.holdReportsFrom >= 0) {
            NodeId from = NodeId.of(a.holdReportsFrom);
            view = view.withHold(m -> m instanceof ViewMessage.Report && m.from().equals(from));
        }
        if (a.noRestart) {
            view = view.withoutRestart();
        }
        CausalUdpNode[] holder = new CausalUdpNode[1];
        try (steps; coordinatorLog; CausalUdpNode node = new CausalUdpNode(c, a.peers, a.loss, a.seed * 1_000_003L + a.self,
                (Event e) -> out.println("D " + e.origin().index() + " " + e.seq()), steps, view, core)) {
            holder[0] = node;
            node.duplicating(a.loss);
            if (a.delayAbove >= 0 && a.suspect >= 0) {
                Predicate<CausalMessage> late = m -> event(m) != null && event(m).origin().index() == a.suspect
                        && event(m).seq() > a.delayAbove;
                node.delaying(late, () -> holder[0].hasReported());
            }
            out.println("listening on " + node.address().getHostString() + ":" + node.address().getPort());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String go = in.readLine();
            if (!"go".equals(go)) {
                System.err.println("causal view node: expected \"go\" on stdin, got " + go);
                return 2;
            }
            node.start(2);
            Thread workload = new Thread(() -> workload(node, a, n, out), "workload");
            workload.setDaemon(true);
            workload.start();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("status")) {
                    out.println("status stored=" + node.state().store().size() + " view=" + node.state().view().toString()
                            .replace(" ", "") + " takeovers=" + node.takeovers() + " restarts=" + node.restarts());
                }
            }
            out.println("counters " + node.counters() + " lost " + node.lost() + " duplicated " + node.duplicated());
        }
        return 0;
    }

    private static Event event(CausalMessage m) {
        return m instanceof CausalMessage.Data d ? d.event() : m instanceof CausalMessage.Resend r ? r.event() : null;
    }

    private static void workload(CausalUdpNode node, Args a, int n, PrintStream out) {
        long period = (long) (1e9 / a.rate);
        broadcast(node, a.before, period, "before");
        boolean reported = false;
        int installedSize = a.installedSize > 0 ? a.installedSize : n - 1;
        while (node.state().view().size() > installedSize) {
            if (!reported && node.hasReported()) {
                reported = true;
                out.println("reported");
            }
            LockSupport.parkNanos(2_000_000L);
        }
        out.println("installed " + node.state().view());
        broadcast(node, a.after, period, "after");
        out.println("done");
    }

    /** {@code count} events, one per {@code period}; a refusal (a full store) is tried again a millisecond later. */
    private static void broadcast(CausalUdpNode node, int count, long period, String tag) {
        long start = System.nanoTime();
        int issued = 0;
        while (issued < count) {
            long wait = start + issued * period - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            } else if (node.broadcast(Payload.ofUtf8(tag + "-" + issued)).outcome() == Outcome.ACCEPTED) {
                issued++;
            } else {
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }

    /** The command line; a bad one gets one line naming the option. */
    private static final class Args {
        int self = -1;
        List<InetSocketAddress> peers;
        Path stepLog;
        Path coordinatorLog;
        int before = 10;
        int after = 10;
        double rate = 40;
        double loss = 0.05;
        long seed = 1;
        int suspect = -1;
        long suspectAfterMs = 300;
        long delayAbove = -1;
        Set<NodeId> suspectable = Set.of();
        int holdReportsFrom = -1;
        int installedSize = 0;
        boolean noRestart;

        static Args parse(String[] args) {
            Args a = new Args();
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--no-restart")) {
                    a.noRestart = true;
                    continue;
                }
                String v = i + 1 < args.length ? args[i + 1] : null;
                if (v == null) {
                    throw new IllegalArgumentException("option " + args[i] + " needs a value");
                }
                switch (args[i++]) {
                    case "--self" -> a.self = Integer.parseInt(v);
                    case "--peers" -> a.peers = peers(v);
                    case "--step-log" -> a.stepLog = Path.of(v);
                    case "--coordinator-log" -> a.coordinatorLog = Path.of(v);
                    case "--before" -> a.before = Integer.parseInt(v);
                    case "--after" -> a.after = Integer.parseInt(v);
                    case "--rate" -> a.rate = Double.parseDouble(v);
                    case "--loss" -> a.loss = Double.parseDouble(v);
                    case "--seed" -> a.seed = Long.parseLong(v);
                    case "--suspect" -> a.suspect = Integer.parseInt(v);
                    case "--suspect-after-ms" -> a.suspectAfterMs = Long.parseLong(v);
                    case "--delay-above" -> a.delayAbove = Long.parseLong(v);
                    case "--suspectable" -> a.suspectable = nodes(v);
                    case "--hold-reports-from" -> a.holdReportsFrom = Integer.parseInt(v);
                    case "--installed-size" -> a.installedSize = Integer.parseInt(v);
                    default -> throw new IllegalArgumentException("unknown option " + args[i - 1]);
                }
            }
            if (a.peers == null || a.stepLog == null || a.self < 0 || a.self >= a.peers.size()) {
                throw new IllegalArgumentException("need --self K, --peers H:P,... (K below their number) and --step-log FILE");
            }
            return a;
        }

        private static Set<NodeId> nodes(String list) {
            Set<NodeId> out = new java.util.HashSet<>();
            for (String k : list.split(",")) {
                out.add(NodeId.of(Integer.parseInt(k)));
            }
            return out;
        }

        private static List<InetSocketAddress> peers(String list) {
            List<InetSocketAddress> out = new ArrayList<>();
            for (String p : list.split(",")) {
                int colon = p.lastIndexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException("peer address " + p + " is not HOST:PORT");
                }
                out.add(new InetSocketAddress(p.substring(0, colon), Integer.parseInt(p.substring(colon + 1))));
            }
            return out;
        }
    }
}
