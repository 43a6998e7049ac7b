package dev.onceproof.bench.causal;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.ManualTicker;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.Recovery;
import dev.onceproof.causal.Step;
import dev.onceproof.causal.Ticker;
import dev.onceproof.causal.VectorClock;
import java.util.ArrayList;
import java.util.List;

/**
 * The causal core's cost per datagram while B events sit buffered (issue 19 item 5), for the
 * {@code bench causal-buffer} command: the real {@link CausalNode} n1 of three (causal mode) holds B
 * events of n2 that wait for n2's first event, which never comes; then datagrams of n3's events
 * arrive, each deliverable on arrival and unblocking nothing. Every batch ends with a heartbeat from
 * n2 and n3 and a garbage collection, so the store stays small and only the buffer is large (the
 * workload of {@code CausalDeliveryBenchmark}, its JMH twin).
 *
 * <p>Besides the time, each node counts the delivery guard's evaluations through the node's
 * {@code deliverable} seam (counting only, the guard unchanged): the work a datagram costs, which
 * is deterministic, so a test can show without timing anything that a core that rescans its buffer
 * ({@link Delivery#RESCAN}, the {@code deliverAllByRescan} seam) is not flat.
 */
final class BufferLoop {

    /** Which delivery the node runs: the shipped index, or the old rescan kept as a seam. */
    enum Delivery {
        INDEXED, RESCAN
    }

    private static final NodeId N1 = NodeId.of(0);
    private static final NodeId N2 = NodeId.of(1);
    private static final NodeId N3 = NodeId.of(2);
    private static final Payload PAYLOAD = Payload.ofUtf8("x");

    /** The real node, with the guard's evaluations counted and the chosen delivery. */
    static final class Node extends CausalNode {
        private final Delivery delivery;
        long guardEvaluations;

        Node(CausalConfig c, Ticker t, Delivery delivery) {
            super(c, t);
            this.delivery = delivery;
        }

        @Override
        protected boolean deliverable(Event e) {
            guardEvaluations++;
            return super.deliverable(e);
        }

        @Override
        public Step deliverAll() {
            return delivery == Delivery.RESCAN ? deliverAllByRescan() : super.deliverAll();
        }
    }

    private final int buffered;
    private final Node node;
    private long seq3;
    private long datagrams;

    /** A node holding {@code buffered} events of n2 that wait for n2's first event. */
    BufferLoop(int buffered, Delivery delivery) {
        if (buffered < 1) {
            throw new IllegalArgumentException("buffered events: " + buffered + ", at least 1");
        }
        this.buffered = buffered;
        // Bounds above what the run holds, so no refusal makes the sizes differ.
        CausalConfig c = new CausalConfig(3, N1, Mode.CAUSAL, 1_000_000, 1_000_000, 0,
                buffered + 1, 1 << 20, buffered + 1, Recovery.LIVE);
        node = new Node(c, new ManualTicker(0), delivery);
        // n2's events 2..B+1, newest first so the first reveals the whole gap at once.
        for (long s = buffered + 1; s >= 2; s--) {
            Event e = new Event(new EventId(N2, s), VectorClock.of(new long[] {0, s, 0}), PAYLOAD);
            Step st = node.handle(new CausalMessage.Data(e));
            if (st.outcome() != Outcome.ACCEPTED) {
                throw new IllegalStateException("setting up " + buffered + " buffered events: " + e.id() + " was "
                        + st.outcome() + " " + st.detail());
            }
        }
        checkBuffered();
    }

    /**
     * One batch: {@code count} datagrams of n3, each of which must be delivered at once, then the
     * heartbeats and the collection. Returns the nanoseconds the batch took.
     */
    long batch(int count) {
        long t0 = System.nanoTime();
        int delivered = 0;
        for (int i = 0; i < count; i++) {
            seq3++;
            Event e = new Event(new EventId(N3, seq3), VectorClock.of(new long[] {0, 0, seq3}), PAYLOAD);
            delivered += node.handle(new CausalMessage.Data(e)).delivered().size();
        }
        node.receiveHeartbeat(N2, VectorClock.of(new long[] {0, 0, seq3}));
        node.receiveHeartbeat(N3, VectorClock.of(new long[] {0, 0, seq3}));
        node.collectGarbage();
        long nanos = System.nanoTime() - t0;
        if (delivered != count) {
            // A datagram that is not delivered, or one that delivers a buffered event, is not this workload.
            throw new IllegalStateException(buffered + " buffered: " + delivered + " deliveries for " + count
                    + " datagrams, not one each; not running the workload");
        }
        datagrams += count;
        return nanos;
    }

    /** Guard evaluations per datagram over one untimed batch of {@code count} datagrams. */
    double guardEvaluationsPerDatagram(int count) {
        long before = node.guardEvaluations;
        batch(count);
        return (node.guardEvaluations - before) / (double) count;
    }

    /** Fails unless exactly {@code buffered} events still wait: the loop measured what it says. */
    void checkBuffered() {
        int now = node.state().buf().size();
        if (now != buffered) {
            throw new IllegalStateException(now + " events buffered, the run is for " + buffered);
        }
    }

    int buffered() {
        return buffered;
    }

    long datagrams() {
        return datagrams;
    }

    /** Loops for several sizes, one node each. */
    static List<BufferLoop> forSizes(int[] sizes, Delivery delivery) {
        List<BufferLoop> out = new ArrayList<>();
        for (int b : sizes) {
            out.add(new BufferLoop(b, delivery));
        }
        return out;
    }
}
