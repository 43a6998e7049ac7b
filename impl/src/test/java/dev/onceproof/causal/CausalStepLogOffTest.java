package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.steplog.StepLog;
import dev.onceproof.steplog.StepLogOffTest;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The causal node's step-log hooks cost a step nothing with the log off: each tests {@link
 * StepLog#on()} of the final {@link StepLog#OFF} first. Measured with the JVM's per-thread allocation
 * counter over many receipts of a copy the node already has (a Receive step, outcome duplicate, the
 * same work every time) through the shared {@link ConcurrentCausalNode}: a node built without a log,
 * one with {@code StepLog.OFF}, and the control, one with the log on (the counter sees the line).
 *
 * <p>The two without a line are measured alternately, five rounds each, and each keeps its least
 * figure: whether the JIT has removed a short-lived object yet depends on when its compilation
 * finishes, which a loaded machine delays (one run measured 172 bytes without a log and 208 with it
 * off, in that order, the second before its recompilation ended). An allocation the off path really
 * makes (a line built before the {@code on()} test) is there in every round, so the least still
 * shows it.
 */
class CausalStepLogOffTest {

    @TempDir
    Path dir;

    @Test
    void aReceiveAllocatesNoMoreWithTheLogOffThanWithout() throws Exception {
        long without = Long.MAX_VALUE;
        long off = Long.MAX_VALUE;
        // the least of up to MAX_ROUNDS rounds, stopping once they agree: see StepLogOffTest.MAX_ROUNDS
        for (int round = 0; round < StepLogOffTest.MAX_ROUNDS && (round == 0 || off > without + StepLogOffTest.SLACK); round++) {
            without = Math.min(without, bytesPerReceive(null));
            off = Math.min(off, bytesPerReceive(StepLog.OFF));
        }
        Path file = dir.resolve("n2.jsonl");
        long on;
        CausalConfig c = config();
        try (StepLog log = StepLog.open(file, CausalNode.stepLogHeader(c))) {
            on = bytesPerReceive(log);
        }
        System.out.printf("bytes allocated per duplicate receive: no log argument %d, log off %d, log on %d%n",
                without, off, on);
        assertThat(off).isLessThanOrEqualTo(without + StepLogOffTest.SLACK);
        assertThat(on).isGreaterThan(off + 64);
        assertThat(Files.readAllLines(file).get(3)).contains("\"action\":\"Receive\"").contains("\"outcome\":\"duplicate\"");
    }

    private static CausalConfig config() {
        return CausalConfig.of(3, NodeId.of(1), Mode.CAUSAL, 10, 20, 0);
    }

    private static long bytesPerReceive(StepLog log) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ManualTicker ticker = new ManualTicker(0);
        CausalNode core = log == null ? new CausalNode(config(), ticker) : new CausalNode(config(), ticker, log);
        ConcurrentCausalNode node = new ConcurrentCausalNode(core, e -> { });
        CausalMessage m = new CausalMessage.Data(new Event(new EventId(NodeId.of(0), 1), VectorClock.of(1, 0, 0),
                Payload.ofUtf8("x")));
        node.handle(m); // buffered and delivered; every later copy is a duplicate
        for (int i = 0; i < 50_000; i++) {
            node.handle(m);
        }
        int n = 200_000;
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < n; i++) {
            node.handle(m);
        }
        return (mx.getCurrentThreadAllocatedBytes() - before) / n;
    }
}
