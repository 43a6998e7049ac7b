package dev.onceproof.causal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.JoinState;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.Ticker;
import dev.onceproof.causal.VectorClock;
import dev.onceproof.causal.wire.ViewMessage;
import dev.onceproof.steplog.StepLog;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A node comes back under a new id through the UDP runtime (issue 19 item 3;
 * specs/causal/CausalJoin.tla), five ids in one JVM, 5% of datagrams lost and 5% handled twice.
 * n5 is a spare. After 10 events each, n1 (the coordinator) suspects n2 falsely and removes it; n2's
 * process stops and comes back as n5, which joins from n1 (the donor: Join, the state in chunks)
 * while n3 and n4 take InstallJoin when n1 tells them. Then n1, n3, n4 and n5 broadcast 10 more
 * each: every one of them delivers all 40 (n5 none of the prefix it was handed, each of the rest
 * once and in order), and every store empties (garbage collection counts n5's row). A process
 * of the removed id n2 asking to join is refused for good.
 *
 * <p>Controls: a joiner that starts from an empty prefix (the core's {@code startPrefix} seam,
 * MutJoinEmptyPrefix's defect), and n3 never taking the install (it drops n1's JoinInstall): the
 * run does not finish, as the checks the real run passes say.
 */
class JoinOverUdpTest {

    private static final int N = 5;
    private static final NodeId N1 = NodeId.of(0);
    private static final NodeId N2 = NodeId.of(1);
    private static final NodeId N3 = NodeId.of(2);
    private static final NodeId N5 = NodeId.of(4);
    private static final List<NodeId> LIVE = List.of(N1, N3, NodeId.of(3), N5);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int BEFORE = 10;
    private static final int AFTER = 10;

    @Test
    void aRemovedNodeComesBackUnderANewIdAndTheGroupGoesOn() throws Exception {
        Run r = run(CausalNode::new, m -> false, 30_000);
        System.out.println("join run: done " + r.done + ", stored " + r.stored + ", n5 joined at " + r.joinedAt
                + ", refusal of n2: " + r.refusal);
        assertThat(r.done).as("all four delivered the 40 later events and emptied their stores").isTrue();
        assertThat(r.refusal).contains("n2 was removed");
        assertThat(r.chunks).as("the state crossed the network in several chunks").isGreaterThan(1);
        // n5's log as the spec counts it: the handed prefix delivered first (in seq order, a causal order
        // of it), then what n5's application got; n2's process is not audited (its log stops at removal).
        DeliveryAudit.Result audit = DeliveryAudit.check(Mode.CAUSAL, r.withPrefix(), Set.copyOf(LIVE));
        assertThat(audit.violations()).isEmpty();
        assertThat(audit.orderOk()).isTrue();
        assertThat(audit.onceOk()).isTrue();
        // n5: none of the handed prefix, then every later event of each origin once and in seq order.
        for (NodeId o : List.of(N1, N3, NodeId.of(3))) {
            List<Long> seqs = r.delivered.get(N5).stream().filter(e -> e.origin().equals(o)).map(EventId::seq).toList();
            List<Long> expected = new ArrayList<>();
            for (long s = r.joinedAt.get(o) + 1; s <= BEFORE + AFTER; s++) {
                expected.add(s);
            }
            assertThat(seqs).as("n5's deliveries of %s after its prefix %s", o, r.joinedAt).isEqualTo(expected);
        }
    }

    /** MutJoinEmptyPrefix's defect: the joiner must recover events the members collected as delivered at n5. */
    @Test
    void aJoinerStartedFromAnEmptyPrefixDoesNotCatchUp() throws Exception {
        Run r = run(EmptyPrefix::new, m -> false, 8_000);
        System.out.println("empty-prefix control: done " + r.done + ", stored " + r.stored + ", n5 delivered "
                + r.delivered.get(N5).size());
        assertThat(r.done).isFalse();
    }

    /** A member that never installs the join refuses n5's events: they are neither delivered there nor collected. */
    @Test
    void aMemberThatNeverInstallsStopsDeliveryOfTheJoinersEvents() throws Exception {
        Run r = run(CausalNode::new, m -> m instanceof ViewMessage.JoinInstall, 8_000);
        System.out.println("no-install control: done " + r.done + ", stored " + r.stored + ", n1 join pending "
                + r.joinPending);
        assertThat(r.done).isFalse();
        assertThat(r.joinPending).containsExactly(N3);
        assertThat(r.delivered.get(N3)).noneMatch(e -> e.origin().equals(N5));
    }

    /** The bound on a state's chunks: a config whose store could make a larger state refuses the spare. */
    @Test
    void aSpareIsRefusedWhereTheStoreCouldOutgrowTheJoinsChunks() throws Exception {
        List<InetSocketAddress> any = new ArrayList<>();
        for (int k = 0; k < N; k++) {
            any.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        }
        CausalConfig c = CausalConfig.of(N, N1, Mode.CAUSAL, 5 * MS, 20 * MS, 20 * MS);
        try (CausalUdpNode a = new CausalUdpNode(c.withBounds(c.maxBuffered(), 200_000, c.maxMissing()), any, 0, 1, e -> { })) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.spare(N5))
                    .hasMessageContaining("spare n5 at n1").hasMessageContaining("maxStored 200000");
        }
        try (CausalUdpNode a = new CausalUdpNode(c, any, 0, 1, e -> { })) {
            a.spare(N5); // the default store fits
        }
    }

    private static final class EmptyPrefix extends CausalNode {
        EmptyPrefix(CausalConfig c, Ticker t, StepLog log) {
            super(c, t, log);
        }

        @Override
        protected long startPrefix(int k, JoinState s) {
            return 0;
        }
    }

    private record Run(Map<NodeId, List<EventId>> delivered, boolean done, Map<NodeId, Integer> stored,
            VectorClock joinedAt, String refusal, Set<NodeId> joinPending, int chunks) {

        Map<NodeId, List<EventId>> withPrefix() {
            Map<NodeId, List<EventId>> m = new LinkedHashMap<>(delivered);
            List<EventId> n5 = new ArrayList<>();
            long most = 0;
            for (int k = 0; k < joinedAt.size(); k++) {
                most = Math.max(most, joinedAt.get(k));
            }
            for (long s = 1; s <= most; s++) { // round robin by seq: the events were issued so, each after the last round
                for (int k = 0; k < joinedAt.size(); k++) {
                    if (s <= joinedAt.get(k)) {
                        n5.add(new EventId(NodeId.of(k), s));
                    }
                }
            }
            n5.addAll(delivered.get(N5));
            m.put(N5, n5);
            return m;
        }
    }

    /** {@code n5Core} builds the joiner's core; n3 drops the view messages {@code n3Drops}. */
    private static Run run(CausalUdpNode.Core n5Core, Predicate<ViewMessage> n3Drops, long deadlineMillis)
            throws Exception {
        Map<NodeId, List<EventId>> delivered = new LinkedHashMap<>();
        List<InetSocketAddress> any = new ArrayList<>();
        for (int k = 0; k < N; k++) {
            delivered.put(NodeId.of(k), Collections.synchronizedList(new ArrayList<>()));
            any.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        }
        ViewOptions view = ViewOptions.manual(20 * MS);
        List<CausalUdpNode> nodes = new ArrayList<>();
        List<CausalUdpNode> all = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMillis);
        try {
            for (int k = 0; k < N - 1; k++) {
                CausalUdpNode a = node(k, any, delivered, k == 2 ? view.withHold(n3Drops) : view, CausalNode::new);
                a.spare(N5);
                nodes.add(a);
            }
            all.addAll(nodes);
            for (CausalUdpNode a : nodes) {
                for (int k = 0; k < nodes.size(); k++) {
                    a.setPeer(k, nodes.get(k).address());
                }
            }
            nodes.forEach(a -> a.start(2));
            for (int e = 0; e < BEFORE; e++) {
                for (CausalUdpNode a : nodes) {
                    broadcast(a, "before-" + e, deadline);
                }
                Thread.sleep(2);
            }
            CausalUdpNode n1 = nodes.get(0).joinChunkBytes(64); // the small state in several datagrams, each lost at 5%
            assertThat(n1.suspect(N2)).isTrue(); // falsely: n2 is up
            waitFor(() -> n1.flushingAll().isEmpty() && !n1.members().contains(N2), deadline,
                    () -> "n1 removed n2 (members " + n1.members() + ", flushing " + n1.flushingAll() + ")");
            nodes.get(1).close(); // n2's process stops; it comes back as n5

            CausalUdpNode n5 = node(4, any, delivered, view, n5Core).joinFrom(N1);
            all.add(n5);
            for (int k = 0; k < nodes.size(); k++) {
                if (k != 1) {
                    n5.setPeer(k, nodes.get(k).address()); // n2's process is gone: n5 never learns an address of it
                }
                nodes.get(k).setPeer(4, n5.address());
            }
            n5.start(2);
            waitFor(() -> !n5.joining(), deadline, () -> "n5 has its donor's state");
            long installs = System.nanoTime() + 2_000 * MS; // the members' installs, or a control's lack of them
            waitFor(() -> n1.joinPending().isEmpty() || System.nanoTime() > installs, deadline, () -> "the installs");

            // A process of the removed id asks to join: refused for good.
            Map<NodeId, List<EventId>> none = new LinkedHashMap<>();
            none.put(N2, new ArrayList<>());
            CausalUdpNode again = node(1, any, none, view, CausalNode::new).joinFrom(N1);
            all.add(again);
            again.setPeer(0, n1.address());
            n1.setPeer(1, again.address());
            again.start(1);
            waitFor(() -> !again.joinRefusal().isEmpty(), deadline, () -> "n2's join refused");

            List<CausalUdpNode> live = List.of(n1, nodes.get(2), nodes.get(3), n5);
            for (int e = 0; e < AFTER && !n5.joining(); e++) {
                for (CausalUdpNode a : live) {
                    broadcast(a, "after-" + e, deadline);
                }
                Thread.sleep(2);
            }
            boolean done = false;
            while (!done && System.nanoTime() < deadline) {
                done = !n5.joining();
                for (int i = 0; i < LIVE.size() && done; i++) {
                    NodeId s = LIVE.get(i);
                    long later;
                    synchronized (delivered.get(s)) {
                        later = delivered.get(s).stream()
                                .filter(d -> LIVE.contains(d.origin()) && d.seq() > (d.origin().equals(N5) ? 0 : BEFORE))
                                .count();
                    }
                    done &= later == (long) AFTER * LIVE.size() && live.get(i).state().store().isEmpty();
                }
                Thread.sleep(5);
            }
            Map<NodeId, Integer> stored = new LinkedHashMap<>();
            for (int i = 0; i < LIVE.size(); i++) {
                stored.put(LIVE.get(i), live.get(i).state().store().size());
            }
            Map<NodeId, List<EventId>> copy = new LinkedHashMap<>();
            delivered.forEach((k, l) -> copy.put(k, List.copyOf(l)));
            System.out.println("n5's state came in " + n1.joinChunks() + " chunks");
            return new Run(copy, done, stored, n5.joinedAt(), again.joinRefusal(), n1.joinPending(), n1.joinChunks());
        } finally {
            all.forEach(CausalUdpNode::close);
        }
    }

    private static CausalUdpNode node(int k, List<InetSocketAddress> any, Map<NodeId, List<EventId>> delivered,
            ViewOptions view, CausalUdpNode.Core core) throws Exception {
        NodeId id = NodeId.of(k);
        List<EventId> log = delivered.get(id);
        return new CausalUdpNode(CausalConfig.of(N, id, Mode.CAUSAL, 5 * MS, 20 * MS, 20 * MS), any, 0.05,
                23 * 1_000_003L + k, e -> log.add(e.id()), StepLog.OFF, view, core).duplicating(0.05);
    }

    private static void broadcast(CausalUdpNode a, String payload, long deadline) throws InterruptedException {
        while (a.broadcast(Payload.ofUtf8(payload)).outcome() != Outcome.ACCEPTED && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    private static void waitFor(BooleanSupplier cond, long until, java.util.function.Supplier<String> what)
            throws InterruptedException {
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out waiting until " + what.get());
            }
            Thread.sleep(2);
        }
    }
}
