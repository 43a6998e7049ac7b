package dev.onceproof.conformance.lincheck.exactlyonce;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;

/**
 * The bounds of the Strategy 3 Lincheck tests: 2 threads x 3 operations, 1 before and 1 after;
 * model checking 20 scenarios x 20 interleavings, stress 5 scenarios x 100 runs.
 *
 * <p>Chosen by measurement ({@link S3LincheckBoundsMeasurement}, 2026-11-25, shared 2-core machine
 * at load average about 20): which of Lincheck's scenarios (their seeds are fixed, so the same bounds
 * give the same scenarios) first catches each racy control, up to 30 scenarios, 1 operation after:
 *
 * <pre>
 * control                 mode            2x1 (0|1 before)  2x2 (0 before)  2x2 (1 before)  2x3 (0 before)  2x3 (1 before)
 * PrintedSnapshot (R3)    model checking  not in 30         not in 30       7               not in 30       1
 * PrintedSnapshot (R3)    stress          not in 30         not in 30       7               not in 30       1
 * HandoffAfterUnlock      model checking  not in 30         not in 30       not in 30       29              17
 * HandoffAfterUnlock      stress          not in 30         not in 30       not in 30       not in 30       not in 30
 * </pre>
 *
 * The printed snapshot race needs only 2 x 2 with one operation before (scenario 7); the
 * hand-over one line later needs 2 x 3 with one before (the purge side must sync and purge while
 * deliverNext is between its lock and its hand-over) and is first caught at scenario 17, by model
 * checking only: stress never hit that window of a few instructions in 30 scenarios x 100 runs.
 * So 2 x 3 (1 before) for both, model checking 20 scenarios (17 + 3 margin), stress 5 (the
 * printed race at scenario 1, + 4). The times per row are in the measurement's output (for
 * example 151 s to catch the hand-over race at scenario 17, 64 s for the printed one at 1, under
 * load); earlier, 5 model-checking scenarios of the corrected server took 118 s under load 25-35,
 * so the 20 now cost about four times that: the corrected server took 292 s (model checking) and
 * 24.3 s (stress) at these bounds, load about 23. Idle times were not measured. With Lincheck's
 * default invocation timeout a run of the hand-over control under that load reported "the
 * execution has hung" in peerDelivers (which cannot block) instead of the race; with the
 * 60 s timeout it was caught (164 s, "Invalid execution results").
 */
final class S3LincheckOptions {

    /**
     * Lincheck's time limit per invocation before it reports "the execution has hung" (an internal
     * option, hence the name). On the loaded 2-core machine the default reported hangs in
     * operations that cannot block (peerDelivers, syncBA) and hid the racy controls' duplicates
     * (2026-11-25, load average about 23); a minute leaves real deadlocks still reported.
     */
    static final long INVOCATION_TIMEOUT_MS = 60_000;

    /**
     * How often one code location may run in a row before model checking takes it for a spin
     * loop. With the replication round's state (each note's numbers and origin, saved with every
     * step) Lincheck 2.39 failed with its internal "Check failed." on every model-checking run of
     * these tests (2026-11-27), an aborted run it could not attribute; the default is 101.
     */
    static final int HANGING_DETECTION_THRESHOLD = 1_000;

    private S3LincheckOptions() {
    }

    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .sequentialSpecification(SequentialS3.class)
                .iterations(20)
                .invocationsPerIteration(20)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1)
                .hangingDetectionThreshold(HANGING_DETECTION_THRESHOLD)
                .invocationTimeout$lincheck(INVOCATION_TIMEOUT_MS);
    }

    static StressOptions stress() {
        return new StressOptions()
                .sequentialSpecification(SequentialS3.class)
                .iterations(5)
                .invocationsPerIteration(100)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1)
                .invocationTimeout$lincheck(INVOCATION_TIMEOUT_MS);
    }
}
