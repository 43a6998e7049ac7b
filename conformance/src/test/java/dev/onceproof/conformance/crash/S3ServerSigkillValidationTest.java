package dev.onceproof.conformance.crash;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.StepLogFile;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 for Strategy 3's server: server A as a JVM of its own ({@link S3ServerMain}, the real
 * ConcurrentS3Server over a journal with fsync) killed with SIGKILL and restarted from its store,
 * its incarnations' step logs and the client's checked against ExactlyOnceS3MsgRound
 * (TraceExactlyOnceS3.tla: the incarnations joined by ServerCrash, the restart's ServerRecover
 * line checked against the spec's K, D and seen, a killed incarnation's last line droppable as
 * not committed). And the check can fail: a core broken through its journaling seam is rejected at
 * the restart that reads its store, a committed last line removed by hand at the restart that still
 * shows its effect, a second delivery inserted and a SendNote removed by hand where they go wrong.
 * The hand-edited logs are the stored run {@code validate/exactlyonce/server-sigkill-seed7/}.
 */
class S3ServerSigkillValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;
    static final Path STORED = TestValidators.REPO.root()
            .resolve("conformance/src/test/resources/validate/exactlyonce/server-sigkill-seed7");

    @TempDir
    Path dir;

    /** Kills 60-150 ms after a server is up (its JVM start not counted): tens to a few hundred lines for TLC. */
    static S3ServerCrashExperiment.Config shortRun(long seed, int kills) {
        return new S3ServerCrashExperiment.Config(kills, seed, 60, 150, 3, S3ServerMain.class.getName());
    }

    @Test
    @Timeout(180)
    void aServerKilledThreeTimesLeavesLogsThatAreABehaviourOfTheSpec() throws Exception {
        Path logs = Files.createDirectory(dir.resolve("logs"));
        S3ServerCrashExperiment run = new S3ServerCrashExperiment(shortRun(7, 3), dir, System.out).logSteps(logs);
        EoIdListCrashReport report = run.run();
        report.print(System.out);
        assertThat(report.safe()).as(report.toString()).isTrue();
        assertThat(report.acked()).as("the run delivered notes").isPositive();
        List<Path> files = files(logs);
        assertThat(files).as("the client's log and one per server incarnation").hasSize(5);
        Validation v = VALIDATOR.validate(files);
        System.out.println("Strategy 3, server A killed 3 times (" + run.cutSteps() + " cut a logged step): "
                + v.summary());
        assertThat(v.accepted()).as(v.report()).isTrue();
    }

    /**
     * A core that applies its D changes but does not journal them ({@code ServerOp.AddD} left out of
     * its records, EoSeams) runs as the real one until a kill: the restart then reads back a D
     * without the notes delivered before it, and the ServerRecover line is rejected (the spec's D
     * keeps them across ServerCrash). Four kills: D is non-empty at most kills (a note is in D from
     * its ack to its purge), and the first kill with a non-empty D is where it goes wrong.
     */
    @Test
    @Timeout(180)
    void aCoreThatDoesNotJournalItsDeliveriesIsRejectedAtTheRestart() throws Exception {
        Path logs = Files.createDirectory(dir.resolve("logs"));
        new S3ServerCrashExperiment(shortRun(7, 4).withServerMain(BrokenS3ServerMain.class.getName()), dir,
                System.out).logSteps(logs).run();
        Validation v = VALIDATOR.validate(files(logs));
        System.out.println("Control, S3Server without journaling AddD:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).anySatisfy(t -> {
            assertThat(t.process()).isEqualTo("A");
            assertThat(t.text()).contains("\"action\":\"ServerRecover\"");
        });
    }

    /**
     * Dropping a killed incarnation's last line is allowed only where the restart agrees: incarnation
     * 4's last line, ReceivePurgeAck of n10, was committed (incarnation 5 recovers K without n10).
     * Removed by hand, the line before it becomes the droppable one, and incarnation 5's
     * ServerRecover is rejected: the spec's K still holds n10.
     */
    @Test
    void aCommittedLastLineRemovedIsRejectedAtTheRestartThatShowsIt() {
        List<StepLogFile> logs = edit("server-A-4.jsonl", steps -> {
            ObjectNode last = steps.remove(steps.size() - 1);
            assertThat(last.toString()).contains("\"action\":\"ReceivePurgeAck\"", "\"note\":\"n10\"");
            return steps;
        });
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, incarnation 4's committed ReceivePurgeAck of n10 removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).anySatisfy(t -> {
            assertThat(t.process()).isEqualTo("A");
            assertThat(t.origin()).contains("server-A-5.jsonl:2");
        });
    }

    /**
     * The client's first processing (of n1) inserted again: rejected at the inserted line, where
     * the spec's verdict is "duplicate". Only the run's opening is given (server A's first
     * incarnation up to its ack of n2, the client's lines up to its receipt of n2): nothing after
     * the edit changes where it is rejected, and TLC's cost grows with the log it loads.
     */
    @Test
    void aSecondDeliveryInsertedByHandIsRejectedThere() {
        List<StepLogFile> logs = opening(edit("client-0.jsonl", steps -> {
            ObjectNode first = steps.get(2);
            assertThat(first.toString()).contains("\"action\":\"ReceiveNote\"", "\"verdict\":\"accepted\"");
            steps.add(3, first.deepCopy());
            return steps;
        }));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, the client's first processing inserted again:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).anySatisfy(t -> {
            assertThat(t.process()).isEqualTo("client");
            assertThat(t.index()).isEqualTo(4);
        });
    }

    /**
     * Server A's first SendNote (of n1) removed: the client's receipt of n1 finds no note on the way,
     * and the server's ack of it no Deliver outstanding. The run's opening only, as above.
     */
    @Test
    void aSendNoteRemovedByHandIsRejectedWhereItIsMissed() {
        List<StepLogFile> logs = opening(edit("server-A-0.jsonl", steps -> {
            ObjectNode send = steps.remove(3);
            assertThat(send.toString()).contains("\"action\":\"SendNote\"", "\"note\":\"n1\"");
            return steps;
        }));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, server A's first SendNote removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).anySatisfy(t -> assertThat(t.text()).contains("\"note\":\"n1\""));
    }

    /** The stored run with {@code file}'s steps edited. */
    private static List<StepLogFile> edit(String file, UnaryOperator<List<ObjectNode>> change) {
        List<StepLogFile> out = new ArrayList<>();
        for (Path p : files(STORED)) {
            StepLogFile log = StepLogFile.read(p);
            out.add(p.getFileName().toString().equals(file) ? log.withSteps(change.apply(new ArrayList<>(log.steps())))
                    : log);
        }
        return out;
    }

    /**
     * The run's opening: server A's first incarnation up to its ack of n2 (the third step from its
     * first line naming n2, CreateNote) and the client up to its receipt of n2.
     */
    private static List<StepLogFile> opening(List<StepLogFile> logs) {
        List<StepLogFile> out = new ArrayList<>();
        for (StepLogFile log : logs) {
            String name = log.file().getFileName().toString();
            if (name.equals("server-A-0.jsonl") || name.equals("client-0.jsonl")) {
                List<ObjectNode> steps = log.steps();
                int n = 0;
                while (n < steps.size() && !steps.get(n).toString().contains("\"note\":\"n2\"")) {
                    n++;
                }
                int keep = name.startsWith("server") ? n + 3 : n + 1;
                out.add(log.withSteps(steps.subList(0, Math.min(keep, steps.size()))));
            }
        }
        return out;
    }

    private static List<Path> files(Path dir) {
        try (var list = Files.list(dir)) {
            return list.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
