package dev.onceproof.causal;

import dev.onceproof.sim.SimNetwork;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * An in-memory group for tests: n nodes on one manual clock and the shared {@link SimNetwork} (no
 * lifetime bound, no partitions), whose datagrams the test delivers, loses or duplicates one by one. Records each
 * node's delivery log for {@link dev.onceproof.causal.runtime.DeliveryAudit}.
 */
final class Group {

    final ManualTicker ticker = new ManualTicker(0);
    final CausalNode[] nodes;
    /** Datagrams in flight. */
    final SimNetwork<Outgoing> net = SimNetwork.plain();
    final Map<NodeId, List<EventId>> logs = new LinkedHashMap<>();
    final Set<NodeId> crashed = new LinkedHashSet<>();

    Group(int n, Mode mode, long w, long rto, long heartbeat) {
        this(n, mode, w, rto, heartbeat, CausalNode::new);
    }

    /** Nodes made by {@code f} (a broken node through a seam, for instance) on this group's clock. */
    Group(int n, Mode mode, long w, long rto, long heartbeat, BiFunction<CausalConfig, Ticker, CausalNode> f) {
        nodes = new CausalNode[n];
        for (int k = 0; k < n; k++) {
            nodes[k] = f.apply(CausalConfig.of(n, NodeId.of(k), mode, w, rto, heartbeat), ticker);
            logs.put(NodeId.of(k), new ArrayList<>());
        }
    }

    Step apply(int k, Step s) {
        for (Event e : s.delivered()) {
            logs.get(NodeId.of(k)).add(e.id());
        }
        net.sendAll(s.sends(), ticker.read());
        return s;
    }

    Step broadcast(int k) {
        return apply(k, nodes[k].broadcast(Payload.ofUtf8("e" + k)));
    }

    /** Deliver datagram i of the network (removing it). */
    Step deliver(int i) {
        Outgoing o = net.take(i, false).orElseThrow();
        int k = o.to().index();
        return apply(k, nodes[k].handle(o.message()));
    }

    void lose(int i) {
        net.lose(i);
    }

    void duplicate(int i) {
        net.duplicate(i);
    }

    void crash(int k) {
        nodes[k].crash();
        crashed.add(NodeId.of(k));
    }

    /** Move time and poll every node. */
    void advance(long by) {
        ticker.advance(by);
        for (int k = 0; k < nodes.length; k++) {
            apply(k, nodes[k].poll());
        }
    }

    /** A fair, loss-free end: deliver everything in flight, then let timers run, for a while. */
    void settle(long step, int rounds) {
        for (int r = 0; r < rounds; r++) {
            while (!net.isEmpty()) {
                deliver(0);
            }
            advance(step);
        }
        while (!net.isEmpty()) {
            deliver(0);
        }
    }

    Set<NodeId> correct() {
        Set<NodeId> c = new LinkedHashSet<>(logs.keySet());
        c.removeAll(crashed);
        return c;
    }
}
