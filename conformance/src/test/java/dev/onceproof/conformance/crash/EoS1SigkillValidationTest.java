package dev.onceproof.conformance.crash;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Issue 21 item 1 for Strategy 1's SIGKILL run (EoCrashExperiment, {@code crash-eo --strategy 1}):
 * the client JVM (S1Client over its journal store) logs Init or Recover, Connect and a ReceiveNote
 * line after each durable write and before its ACK; the driver logs as the lone sending server A
 * (CreateNote, StartSession, SendNote before the note leaves, ReceiveAck, and Timeout for a call a
 * kill left open). TLC checks the logs, one cursor each, the client's incarnations joined with
 * ClientCrash and a receipt a kill cut put back from the restart's R, against ExactlyOnceS1Msg
 * (TraceExactlyOnceS1.tla). And the check can fail: a client that acknowledges before it records
 * (the --ack-first control, ClientOrdering.ACK_THEN_RECORD) is rejected at the driver's ReceiveAck
 * of a note the client had not recorded when it was killed.
 */
class EoS1SigkillValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    /** A run whose last incarnation lasts 100 ms: the driver and client exchange a note in well under a ms. */
    private Path run(EoCrashExperiment.Config config, boolean control) throws Exception {
        Path logs = Files.createDirectory(dir.resolve("logs"));
        EoCrashExperiment experiment = new EoCrashExperiment(config.withFinalUp(100), dir, System.out).logSteps(logs);
        if (control) {
            experiment.stopAtFirstLoss();
        }
        EoCrashReport report = experiment.run();
        report.print(System.out);
        assertThat(report.safe()).as(report.toString()).isEqualTo(!control);
        return logs;
    }

    @Test
    @Timeout(180)
    void aClientKilledTwiceLeavesLogsThatAreABehaviourOfTheSpec() throws Exception {
        // Incarnations of 60-120 ms: about a thousand lines (measured 1,722 with three kills of 100-200 ms).
        Path logs = run(new EoCrashExperiment.Config(2, 3, 60, 120, false, 15), false);
        List<Path> files = files(logs);
        assertThat(files).as("the driver's log and one per client incarnation").hasSize(4);
        Validation v = VALIDATOR.validate(files);
        System.out.println("Strategy 1, the client killed twice: " + v.summary());
        assertThat(v.accepted()).as(v.report()).isTrue();
    }

    /**
     * The control: the client acknowledges before its record is durable (20 ms of slow disk, which
     * a kill 0-2 ms after a note was sent lands in); the driver takes the ack, the restart's R lacks
     * the note, and no ReceiveNote (logged or put back) put an ack on the spec's network. Up to six
     * kills, and the run ends after the first that lost an acknowledged note (a lost note stalls its
     * stream, and the driver's offers of it would fill the logs): three kills in four find a note in
     * flight (the drive loop), so all six miss it with probability 1/4096.
     */
    @Test
    @Timeout(180)
    void aClientThatAcknowledgesBeforeItRecordsIsRejectedAtTheAck() throws Exception {
        Path logs = run(new EoCrashExperiment.Config(6, 3, 100, 200, false, 15).withAckFirst(6), true);
        Validation v = VALIDATOR.validate(files(logs));
        System.out.println("Control, the client acknowledging before it records:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).anySatisfy(t -> {
            assertThat(t.process()).isEqualTo("A");
            assertThat(t.text()).contains("\"action\":\"ReceiveAck\"");
        });
    }

    private static List<Path> files(Path dir) {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
