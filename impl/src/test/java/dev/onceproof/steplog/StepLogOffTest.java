package dev.onceproof.steplog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.scmp.ConcurrentScmpFilter;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.InMemoryStableStorage;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logging off costs a step no allocation and no I/O: the filter's hooks test {@link StepLog#on()}
 * of the final {@link StepLog#OFF} and do nothing else. Measured with the JVM's per-thread allocation
 * counter over many receives, against the same loop with the log on (the control: the counter does
 * see the line each logged step builds).
 */
public class StepLogOffTest {

    /**
     * The figures without a line are measured alternately, up to this many rounds each, and each
     * keeps its least; the rounds stop early once the least figures agree. Whether the JIT has removed
     * a short-lived object yet depends on when a compilation finishes, which a loaded machine delays
     * (a causal run measured 172 bytes without a log and 208 with it off, the second before its
     * recompilation ended; CI at stop 29 measured a hybrid CALL at 128 bytes off against 96 bare
     * after five rounds). An allocation the off path really makes (a line built before the
     * {@code on()} test) is in every round, so the least still shows it however many rounds run.
     */
    public static final int MAX_ROUNDS = 40;

    /** Counter noise allowed between two figures of the same code path. */
    public static final long SLACK = 8;

    @TempDir
    Path dir;

    @Test
    void offLogsNothingAndIsTheSharedNoOp() {
        assertThat(StepLog.OFF.on()).isFalse();
        assertThat(StepLog.OFF.file()).isNull();
    }

    @Test
    void aReceiveAllocatesNoMoreWithTheLogOffThanWithout() throws Exception {
        Path file = dir.resolve("on.jsonl");
        long on;
        try (StepLog log = StepLog.open(file, new StepLog.Header("SCMP", "resilient", "test"))) {
            on = bytesPerReceive(log);
        }
        long off = Long.MAX_VALUE;
        long without = Long.MAX_VALUE;
        for (int round = 0; round < MAX_ROUNDS && (round == 0 || off > without + SLACK); round++) { // see MAX_ROUNDS
            off = Math.min(off, bytesPerReceive(StepLog.OFF));
            without = Math.min(without, bytesPerReceive(null));
        }
        System.out.printf("bytes allocated per receive: log off %d, no log argument %d, log on %d%n", off, without, on);
        // Off and the constructor without a log are the same code path: equal up to counter noise.
        assertThat(off).isLessThanOrEqualTo(without + SLACK);
        // The control: a logged step builds a line (StringBuilder growth, a String, its bytes).
        assertThat(on).isGreaterThan(off + 64);
        assertThat(Files.size(file)).isGreaterThan(0);
    }

    /** The hybrid server's hooks: a CALL through the wrapper with the log off costs what the bare core does. */
    @Test
    void aHybridCallAllocatesNoMoreThroughTheLoggingServerWithTheLogOff() throws Exception {
        long core = Long.MAX_VALUE;
        long off = Long.MAX_VALUE;
        for (int round = 0; round < MAX_ROUNDS && (round == 0 || off > core + SLACK); round++) { // see MAX_ROUNDS
            core = Math.min(core, bytesPerCall(null));
            off = Math.min(off, bytesPerCall(StepLog.OFF));
        }
        long on;
        try (StepLog log = StepLog.open(dir.resolve("hybrid.jsonl"), new StepLog.Header("Hybrid", "hybrid", "test"))) {
            on = bytesPerCall(log);
        }
        System.out.printf("bytes allocated per hybrid CALL: bare core %d, log off %d, log on %d%n", core, off, on);
        assertThat(off).isLessThanOrEqualTo(core + SLACK);
        assertThat(on).isGreaterThan(off + 64);
    }

    private static long bytesPerCall(StepLog log) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ManualInstantSource clock = new ManualInstantSource(0);
        dev.onceproof.rpc.hybrid.HybridMessage.Call m = new dev.onceproof.rpc.hybrid.HybridMessage.Call(
                ConnId.of("c1"), 1, 1, Timestamp.of(5));
        java.util.function.Function<dev.onceproof.rpc.hybrid.HybridMessage.Call, Object> step;
        if (log == null) {
            dev.onceproof.rpc.hybrid.HybridServerCore core = new dev.onceproof.rpc.hybrid.HybridServerCore(clock, 10, 1);
            step = core::receiveCall;
        } else {
            dev.onceproof.rpc.hybrid.ConcurrentHybridServer server = new dev.onceproof.rpc.hybrid.ConcurrentHybridServer(
                    clock, c -> new dev.onceproof.rpc.hybrid.HybridServerCore(c, 10, 1), log);
            step = server::receiveCall;
        }
        // The first executes; every later copy is the same call while REPLYING: the reply again.
        for (int i = 0; i < 50_000; i++) {
            step.apply(m);
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        int n = 150_000;
        for (int i = 0; i < n; i++) {
            step.apply(m);
        }
        return (mx.getCurrentThreadAllocatedBytes() - before) / n;
    }

    private static long bytesPerReceive(StepLog log) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, Long.MAX_VALUE / 4, 0, 1000);
        ManualInstantSource clock = new ManualInstantSource(0);
        ConcurrentScmpFilter filter = log == null ? new ConcurrentScmpFilter(config, clock, new InMemoryStableStorage())
                : new ConcurrentScmpFilter(config, clock, new InMemoryStableStorage(), log);
        ConnId[] conns = new ConnId[16];
        for (int i = 0; i < conns.length; i++) {
            conns[i] = ConnId.of("c" + i);
        }
        Timestamp[] stamps = new Timestamp[200_000];
        for (int i = 0; i < stamps.length; i++) {
            stamps[i] = Timestamp.of(i + 1);
        }
        for (int i = 0; i < 50_000; i++) { // warm up: the table's bins and the JIT settle
            filter.receive(conns[i & 15], stamps[i]);
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        int n = stamps.length - 50_000;
        for (int i = 50_000; i < stamps.length; i++) {
            filter.receive(conns[i & 15], stamps[i]);
        }
        return (mx.getCurrentThreadAllocatedBytes() - before) / n;
    }
}
