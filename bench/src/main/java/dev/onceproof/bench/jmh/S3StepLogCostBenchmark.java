package dev.onceproof.bench.jmh;

import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ConcurrentS3Server;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.InMemoryOperationLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
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
 * What the step log costs Strategy 3's runtime: a session started and ended on the real
 * {@link ConcurrentS3Server} (two steps under its lock, each writing a line when on: one write()
 * to a file in the temp directory, no fsync), with the log off ({@link StepLog#OFF}) and on. Run
 * both in one JMH run and read the ratio: {@code java -cp "bench/target/classes:bench/target/lib/*"
 * org.openjdk.jmh.Main S3StepLogCost}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class S3StepLogCostBenchmark {

    @Param({"off", "on"})
    public String log;

    private ConcurrentS3Server server;
    private StepLog stepLog;
    private Path file;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (log.equals("on")) {
            file = Files.createTempFile("s3-steplog-bench", ".jsonl");
            stepLog = StepLog.open(file, new StepLog.Header("ExactlyOnceS3MsgRound", "round", "bench"));
        } else {
            stepLog = StepLog.OFF;
        }
        ServerId a = ServerId.of("A");
        S3Server core = ((S3Server) Strategy.S3.config(ClientId.of("c"), new TreeSet<>(List.of(a, ServerId.of("B"))), 3)
                .server(a, new ManualEoClock(0), ServerDurableState.initial())).logSteps(stepLog);
        server = new ConcurrentS3Server(core, ServerStore.inMemory(new InMemoryOperationLog.Disk("A")));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        stepLog.close();
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    public ServerStep session() {
        server.startSession();
        return server.endSession();
    }
}
