package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.steplog.StepLog;
import dev.onceproof.steplog.StepLogOffTest;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * S3Server's step-log hooks cost a step no allocation and no I/O when the log is off: a session
 * started and ended (two logged steps, StartSession and EndSession) allocates only the two
 * ServerStep results with the log off, and a line each with it on (the control: the counter sees
 * the lines). Measured with the JVM's per-thread allocation counter.
 */
class S3StepLogOffTest {

    /** The two ServerStep records (24 bytes each with compressed oops) and counter noise. */
    static final long RESULTS_BYTES = 56;

    @TempDir
    Path dir;

    @Test
    void aSessionAllocatesOnlyItsResultsWithTheLogOff() throws Exception {
        long off = Long.MAX_VALUE;
        // the least of up to MAX_ROUNDS rounds, stopping once within bound: see StepLogOffTest.MAX_ROUNDS
        for (int round = 0; round < StepLogOffTest.MAX_ROUNDS && (round == 0 || off > RESULTS_BYTES); round++) {
            off = Math.min(off, bytesPerSession(StepLog.OFF));
        }
        Path file = dir.resolve("s3.jsonl");
        long on;
        try (StepLog log = StepLog.open(file, new StepLog.Header("ExactlyOnceS3MsgRound", "round", "test"))) {
            on = bytesPerSession(log);
        }
        System.out.printf("bytes allocated per StartSession + EndSession on S3Server: log off %d, log on %d%n", off, on);
        // The two ServerStep records (24 bytes each with compressed oops), up to counter noise:
        // nothing of the log (a line costs hundreds of bytes: the control below).
        assertThat(off).isLessThanOrEqualTo(RESULTS_BYTES);
        assertThat(on).isGreaterThan(off + 64);
        assertThat(Files.readAllLines(file)).hasSizeGreaterThan(2);
    }

    private static long bytesPerSession(StepLog log) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        S3Server core = new S3Server(new ServerConfig(ServerId.of("A"), ClientId.of("c"),
                new TreeSet<>(List.of(ServerId.of("A"), ServerId.of("B"))), 3), new ManualEoClock(0),
                S3Variant.CORRECTED, ServerDurableState.initial()).logSteps(log);
        for (int i = 0; i < 50_000; i++) {
            core.startSession();
            core.endSession();
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        int n = 150_000;
        for (int i = 0; i < n; i++) {
            core.startSession();
            core.endSession();
        }
        return (mx.getCurrentThreadAllocatedBytes() - before) / n;
    }
}
