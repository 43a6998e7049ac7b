package dev.onceproof.bench.jmh;

import dev.onceproof.scmp.ConcurrentScmpFilter;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.InMemoryStableStorage;
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
 * What the step log costs the real {@link ConcurrentScmpFilter}: one receive (a new message, so the
 * connection table changes and a line with the ct entry is written) with the log off ({@link
 * StepLog#OFF}) and on (a line per step, one write() to a file in the temp directory, no fsync).
 * Run both in one JMH run and read the ratio: {@code java -cp "bench/target/classes:bench/target/lib/*"
 * org.openjdk.jmh.Main StepLogCost}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StepLogCostBenchmark {

    @Param({"off", "on"})
    public String log;

    private final ManualInstantSource clock = new ManualInstantSource(0);
    private final ConnId[] conns = new ConnId[64];
    private ConcurrentScmpFilter filter;
    private StepLog stepLog;
    private Path file;
    private long ts;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        for (int i = 0; i < conns.length; i++) {
            conns[i] = ConnId.of("c" + i);
        }
        ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, Long.MAX_VALUE / 4, 0, 1000);
        if (log.equals("on")) {
            file = Files.createTempFile("steplog-bench", ".jsonl");
            stepLog = StepLog.open(file, new StepLog.Header("SCMP", "resilient", "bench"));
        } else {
            stepLog = StepLog.OFF;
        }
        filter = new ConcurrentScmpFilter(config, clock, new InMemoryStableStorage(), stepLog);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        stepLog.close();
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    public Verdict receive() {
        ts++;
        return filter.receive(conns[(int) (ts & 63)], Timestamp.of(ts));
    }
}
