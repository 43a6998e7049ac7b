package dev.onceproof.conformance.crash.gather;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 1 for Strategy 4's SIGKILL run (GatherCrashExperiment): every server JVM
 * incarnation and the client JVM write step logs (GatherStepLog: a server's line under
 * ConcurrentGatherServer's lock before the step's record, the ADeliverOK line before the processing),
 * and TLC checks the run's logs, merged into one order by their wall-clock times and with each kill
 * as a ServerCrash, against ExactlyOnceS4Msg (TraceExactlyOnceS4.tla). And the check can fail: a
 * restart that ignores the primitive's journal (the resolve-as-error control, which GatherCrashTest
 * shows processing a note twice) is rejected at the restart whose recovered D lacks a note the client
 * processed before the kill. The stored run's hand-edited control and the merge's unit checks are
 * {@code GatherKillRunTest} (no processes: the default execution).
 */
class GatherSigkillValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    /**
     * Two kills, then a second of settling: about 300-500 lines (the standard run's 20 kills would be
     * thousands). Kill moments as the standard run (armed 300-700 ms after every process is up, then
     * mostly inside a delivery).
     */
    static GatherCrashConfig shortRun(long seed, int kills, GatherCrashConfig.Control control) {
        return new GatherCrashConfig(4, kills, seed, 300, 700, control, 0, 30, 5, 1_000, 20);
    }

    private Path run(GatherCrashConfig config, boolean control) throws Exception {
        return runWithLogs(dir, config, control);
    }

    /**
     * One gather SIGKILL run with step logs under {@code dir}/logs (the Strategy 5 and 6 tests' too);
     * a control run stops at its first duplicate, a real one must end safe. Returns the logs' folder.
     */
    static Path runWithLogs(Path dir, GatherCrashConfig config, boolean control) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        GatherCrashExperiment experiment = new GatherCrashExperiment(config,
                GatherCrashExperiment.prepare(dir.resolve("run")), System.out).logSteps(logs);
        if (control) {
            experiment.stopAtFirstDuplicate();
        }
        GatherCrashReport report = experiment.run();
        report.print(System.out);
        assertThat(report.failures()).as("the run itself").isEmpty();
        if (!control) {
            assertThat(report.safe()).as(report.toString()).isTrue();
        }
        return logs;
    }

    @Test
    @Timeout(180)
    void aStrategy4RunWithServersKilledLeavesLogsThatAreABehaviourOfTheSpec() throws Exception {
        Path logs = run(shortRun(5, 2, GatherCrashConfig.Control.NONE), false);
        List<Path> files = files(logs);
        // Three servers, one of them restarted twice or two of them once each, and the client.
        assertThat(files).hasSize(6);
        assertThat(files).anySatisfy(f -> assertThat(read(f)).contains("\"action\":\"ADeliverOK\""));
        Validation v = VALIDATOR.validate(files);
        System.out.println("Strategy 4, servers killed twice: " + v.summary());
        assertThat(v.accepted()).as(v.report()).isTrue();
    }

    /**
     * The control: restarts that take every call a kill left open for an error, without reading the
     * primitive's journal. The kills fall mostly on the delivering server 0-150 ms into a delivery,
     * where a call is usually open after its processing (the 20 ms acknowledgement delay); the
     * restart's ServerRecover line (its D, and the journal's own answer that the note was processed)
     * is where the log leaves the spec, whose D kept the note from the ADeliverOK line. Not every kill
     * finds a processed call open (in one seeded run neither of two did), so the run may take up to 8
     * kills and stops at the first note processed twice (a redelivery of such a note), as
     * GatherCrashTest's controls do.
     */
    @Test
    @Timeout(180)
    void aRestartThatIgnoresThePrimitivesJournalIsRejectedAtItsRecovery() throws Exception {
        Path logs = run(shortRun(5, 8, GatherCrashConfig.Control.RESOLVE_AS_ERROR), true);
        Validation v = VALIDATOR.validate(files(logs));
        System.out.println("Control, restarts resolving every open call as an error:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.text()).contains("\"action\":\"ServerRecover\"");
            // The journal held the open call's note: processed before the kill, missing from D.
            ObjectNode line = (ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(t.text());
            assertThat(line.get("processed")).isNotEmpty();
            line.get("processed").forEach(n -> assertThat(line.get("D").toString()).doesNotContain(n.toString()));
        });
    }

    static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Path> files(Path dir) {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
