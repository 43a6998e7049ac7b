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
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Causal datagrams per second against the number of buffered events (issue 19, item 5): the real
 * {@link CausalNode} n1 of three (causal mode) holds {@code buffered} events of n2 that wait for
 * n2's first event, which never comes; then datagrams of n3's events arrive, each deliverable on
 * arrival and unblocking nothing. {@code delivery=indexed} is the node as shipped (a delivery wakes
 * only the events filed under it); {@code delivery=rescan} is the same node with the delivery it had
 * before, which copies and tests the whole buffer on every datagram (its seam
 * {@code deliverAllByRescan}). Every 1,000 datagrams, n2 and n3 send heartbeats and n1 collects
 * garbage, so the store stays small and both variants do the same extra work. The score is
 * microseconds per datagram; run both in one JMH run and read the ratio:
 * {@code java -cp "bench/target/classes:bench/target/lib/*" org.openjdk.jmh.Main CausalDeliveryBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {"-XX:+UseParallelGC", "-Xmx2g"})
public class CausalDeliveryBenchmark {

    static final int BATCH = 1000;
    private static final NodeId N1 = NodeId.of(0);
    private static final NodeId N2 = NodeId.of(1);
    private static final NodeId N3 = NodeId.of(2);
    private static final Payload PAYLOAD = Payload.ofUtf8("x");

    @Param({"10", "100", "1000", "10000"})
    public int buffered;

    @Param({"indexed", "rescan"})
    public String delivery;

    private CausalNode node;
    private long seq3;

    /** The node with the delivery it had before the index. */
    static final class Rescanning extends CausalNode {
        Rescanning(CausalConfig c, Ticker t) {
            super(c, t);
        }

        @Override
        public Step deliverAll() {
            return deliverAllByRescan();
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        // Bounds above what the run holds: no refusal may make the variants differ.
        CausalConfig c = new CausalConfig(3, N1, Mode.CAUSAL, 1_000_000, 1_000_000, 0,
                buffered + 1, 1 << 20, buffered + 1, Recovery.LIVE);
        ManualTicker ticker = new ManualTicker(0);
        node = delivery.equals("rescan") ? new Rescanning(c, ticker) : new CausalNode(c, ticker);
        // n2's events 2..buffered+1, newest first so the first reveals the whole gap at once.
        for (long s = buffered + 1; s >= 2; s--) {
            Event e = new Event(new EventId(N2, s), VectorClock.of(new long[] {0, s, 0}), PAYLOAD);
            expect(node.handle(new CausalMessage.Data(e)), Outcome.ACCEPTED);
        }
        if (node.state().buf().size() != buffered) {
            throw new IllegalStateException("buffered " + node.state().buf().size() + ", wanted " + buffered);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int datagrams() {
        int delivered = 0;
        for (int i = 0; i < BATCH; i++) {
            seq3++;
            Event e = new Event(new EventId(N3, seq3), VectorClock.of(new long[] {0, 0, seq3}), PAYLOAD);
            delivered += node.handle(new CausalMessage.Data(e)).delivered().size();
        }
        if (delivered != BATCH) {
            throw new IllegalStateException("delivered " + delivered + " of " + BATCH + " datagrams");
        }
        node.receiveHeartbeat(N2, VectorClock.of(new long[] {0, 0, seq3}));
        node.receiveHeartbeat(N3, VectorClock.of(new long[] {0, 0, seq3}));
        return delivered + node.collectGarbage();
    }

    private static void expect(Step s, Outcome o) {
        if (s.outcome() != o) {
            throw new IllegalStateException("setup step: " + s.outcome() + " " + s.detail());
        }
    }
}
