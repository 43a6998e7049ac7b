package dev.onceproof.bench.jmh;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.ManualTicker;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.Step;
import dev.onceproof.causal.VectorClock;
import dev.onceproof.steplog.StepLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the step log costs the causal node the runtime shares ({@link ConcurrentCausalNode}): one
 * datagram handled, a copy of an event the node already delivered (spec Receive, outcome
 * duplicate: the same work every time, one line when logging), with the log off and on. Run both in
 * one JMH run and read the ratio: {@code java -cp "bench/target/classes:bench/target/lib/*"
 * org.openjdk.jmh.Main CausalStepLogCost}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CausalStepLogCostBenchmark {

    @Param({"off", "on"})
    public String log;

    private ConcurrentCausalNode node;
    private CausalMessage copy;
    private StepLog stepLog;
    private Path file;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        CausalConfig config = CausalConfig.of(3, NodeId.of(1), dev.onceproof.causal.Mode.CAUSAL, 10, 20, 0);
        if (log.equals("on")) {
            file = Files.createTempFile("causal-steplog-bench", ".jsonl");
            stepLog = StepLog.open(file, CausalNode.stepLogHeader(config));
        } else {
            stepLog = StepLog.OFF;
        }
        node = new ConcurrentCausalNode(new CausalNode(config, new ManualTicker(0), stepLog), e -> { });
        copy = new CausalMessage.Data(new Event(new EventId(NodeId.of(0), 1), VectorClock.of(1, 0, 0),
                Payload.ofUtf8("x")));
        node.handle(copy);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        stepLog.close();
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    public Step receiveDuplicate() {
        return node.handle(copy);
    }
}
