package dev.onceproof.bench.jmh;

import dev.onceproof.scmp.ManualInstantSource;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of duplicate detection on the same message stream: the concurrent SCMP filter
 * against a Caffeine cache of message ids with expireAfterWrite (the window equal to rho). Each
 * operation is one message: stamp it, judge it, and now and then advance the logical clock and run
 * the deduplicator's housekeeping.
 *
 * <p>The stream runs at {@code messagesPerMilli} messages per logical millisecond, so a window of
 * {@code windowMillis} holds messagesPerMilli * windowMillis ids in the cache and one entry per
 * sender in the SCMP table; that difference is what the memory harness measures.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g", "-Xms3g"})
public class DedupThroughputBenchmark {

    @Param({Deduplicator.SCMP, Deduplicator.CAFFEINE, Deduplicator.CAFFEINE_ASYNC})
    public String impl;

    @Param({"1000", "100000"})
    public int senders;

    @Param({"1000"})
    public int messagesPerMilli;

    @Param({"1000"})
    public long windowMillis;

    private Deduplicator dedup;
    private MessageStream stream;

    @Setup
    public void setUp() {
        ManualInstantSource clock = new ManualInstantSource(1_000_000_000L);
        dedup = Deduplicator.create(impl, clock, windowMillis);
        // A retransmission every 50 messages; housekeeping every quarter window.
        stream = new MessageStream(senders, clock, messagesPerMilli, 50, Math.max(1, windowMillis / 4));
    }

    @Benchmark
    public boolean receive() {
        return stream.next(dedup);
    }
}
