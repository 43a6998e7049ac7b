package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.Rejection;
import dev.onceproof.conformance.validate.StepLogFile;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.steplog.StepLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Trace validation of the join under a new id in two steps (issue 21): the step logs of {@link
 * JoinWorldRun}'s seeded runs (n3 joins from n1, n2 installs later and refuses n3's events until
 * then) are behaviours of CausalJoin.tla, through specs/causal/TraceCausalJoin.tla. The controls: a
 * joiner broken through the {@code startPrefix} seam (MutJoinEmptyPrefix's defect: it starts from an
 * empty prefix) is rejected at its first line that differs from the real joiner's; a member broken
 * through {@code joinRowStart} (MutJoinRowFromDonor) at its InstallJoin line; a second
 * delivery inserted by hand is rejected at it; the donor's Join line removed by hand is rejected at
 * the first line that needs it.
 */
class CausalJoinValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    /** Seeds 4 and 13: n2 refuses an event of n3 before it installs the join, and recovers it after. */
    @ParameterizedTest
    @ValueSource(ints = {SEED, 13})
    void theJoinWorldsLogsAreABehaviourOfCausalJoin(int seed) throws IOException {
        JoinWorldRun.Result r = JoinWorldRun.run(dir, seed, CausalNode::new);
        assertThat(r.prefixes()).as("every node delivered everything").containsOnly(r.prefixes().get(0));
        String all = Files.readString(r.logs().get(0)) + Files.readString(r.logs().get(1));
        assertThat(all).contains("\"Join\"", "\"InstallJoin\"");
        assertThat(Files.readString(r.logs().get(1))).as("n2 refused an event of n3 before its install")
                .contains("\"excluded\"", "\"origin\":\"n3\"");
        Validation v = VALIDATOR.validate(r.logs());
        assertThat(v.accepted()).as("seed %d\n%s", seed, v.report()).isTrue();
        assertThat(v.spec()).isEqualTo("CausalJoin");
        System.out.println("seed " + seed + ": " + v.lines() + " lines, " + v.states() + " states, " + v.wallTime());
    }

    /**
     * MutJoinEmptyPrefix in the core: a joiner that starts from an empty prefix takes the copies sent
     * to it before the join as new and delivers again what it was handed. On the first seed where its
     * logs differ from the real joiner's, TLC rejects the broken run at an n3 line.
     */
    @Test
    void aJoinerThatStartsFromAnEmptyPrefixIsRejected() throws IOException {
        for (int seed = 0; seed < 50; seed++) {
            Path real = Files.createDirectories(dir.resolve("real-" + seed));
            Path broken = Files.createDirectories(dir.resolve("broken-" + seed));
            List<Path> a = JoinWorldRun.run(real, seed, CausalNode::new).logs();
            List<Path> b = JoinWorldRun.run(broken, seed, EmptyPrefixNode::new).logs();
            if (Files.readAllLines(a.get(2)).equals(Files.readAllLines(b.get(2)))) {
                continue;
            }
            Validation v = VALIDATOR.validate(b);
            System.out.println("Control, seed " + seed + ", the joiner from an empty prefix:\n" + v.report());
            assertThat(v.accepted()).as("seed %d: the joiner from an empty prefix was accepted", seed).isFalse();
            Rejection.Tried at = tried(v);
            assertThat(at.origin()).as("%s", v.report()).startsWith(b.get(2).toString() + ":");
            return;
        }
        throw new AssertionError("no seed below 50 where the joiner from an empty prefix logs differently");
    }

    /**
     * MutJoinRowFromDonor in the core (what installJoin did before issue 21): a member that starts
     * the joiner's row from its row of the donor at the install. On the first seed where that row is
     * above the handed prefix, TLC rejects the run at n2's InstallJoin line (the row it logs is not
     * the spec's known[n2][n3]).
     */
    @Test
    void aMemberThatStartsTheJoinersRowFromItsRowOfTheDonorIsRejectedAtItsInstall() throws IOException {
        for (int seed = 0; seed < 50; seed++) {
            Path real = Files.createDirectories(dir.resolve("real-" + seed));
            Path broken = Files.createDirectories(dir.resolve("broken-" + seed));
            List<Path> a = JoinWorldRun.run(real, seed, CausalNode::new).logs();
            List<Path> b = JoinWorldRun.run(broken, seed, RowFromDonorNode::new).logs();
            if (!above(installRow(b.get(1)), installRow(a.get(1)))) {
                continue; // the row of the donor was not above the prefix: the defect did not show
            }
            Validation v = VALIDATOR.validate(b);
            System.out.println("Control, seed " + seed + ", the row from the donor's row:\n" + v.report());
            assertThat(v.accepted()).as("seed %d: the row from the donor's row was accepted", seed).isFalse();
            Rejection.Tried at = tried(v);
            assertThat(at.origin()).as("%s", v.report()).startsWith(b.get(1).toString() + ":");
            assertThat(at.text()).contains("\"action\":\"InstallJoin\"");
            return;
        }
        throw new AssertionError("no seed below 50 where the member's row of the donor was above the handed prefix");
    }

    /** The row n2's InstallJoin line logs. */
    private static JsonNode installRow(Path n2) {
        StepLogFile log = StepLogFile.read(n2);
        return log.steps().get(indexOf(log.steps(), "InstallJoin")).path("row");
    }

    private static boolean above(JsonNode row, JsonNode handed) {
        for (var it = row.fields(); it.hasNext(); ) {
            var e = it.next();
            if (e.getValue().asLong() > handed.path(e.getKey()).asLong()) {
                return true;
            }
        }
        return false;
    }

    /** A second delivery of the same event, inserted right after the first: rejected there. */
    @Test
    void aSecondDeliveryInsertedByHandIsRejectedAtIt() {
        List<StepLogFile> logs = read(JoinWorldRun.run(dir, SEED, CausalNode::new).logs());
        StepLogFile n3 = logs.get(2);
        int i = indexOf(n3.steps(), "Deliver");
        List<ObjectNode> edited = new ArrayList<>(n3.steps());
        edited.add(i + 1, n3.steps().get(i).deepCopy());
        logs.set(2, n3.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        assertThat(v.accepted()).isFalse();
        Rejection.Tried at = tried(v);
        assertThat(at.origin()).as("%s", v.report()).isEqualTo(n3.file() + ":" + (i + 3));
        assertThat(at.text()).contains("\"action\":\"Deliver\"");
    }

    /**
     * The donor's Join line removed: n3's lines and n2's InstallJoin can no longer be placed (they
     * come after the Join), nor what waits for them (n2's later broadcasts, their receipts): the run
     * is rejected at the first line that cannot be taken, before the end of the logs.
     */
    @Test
    void theJoinRemovedByHandIsRejectedAtTheFirstLineThatNeedsIt() {
        List<StepLogFile> logs = read(JoinWorldRun.run(dir, SEED, CausalNode::new).logs());
        StepLogFile n1 = logs.get(0);
        int i = indexOf(n1.steps(), "Join");
        List<ObjectNode> edited = new ArrayList<>(n1.steps());
        edited.remove(i);
        logs.set(0, n1.withSteps(edited));
        Validation v = VALIDATOR.validateLogs(logs);
        System.out.println("Control, the Join line removed:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection()).as("%s", v.report()).isNotNull();
        assertThat(v.rejection().taken()).as("%s", v.report()).isLessThan(v.lines());
    }

    /** The seed of the stored regression log validate/causal/world-join-seed4. */
    static final int SEED = 4;

    /** The joiner starts from an empty prefix: the seam {@link CausalNode#startPrefix}. */
    static final class EmptyPrefixNode extends CausalNode {
        EmptyPrefixNode(CausalConfig c, Ticker t, StepLog log) {
            super(c, t, log);
        }

        @Override
        protected long startPrefix(int k, JoinState s) {
            return 0;
        }
    }

    /** The joiner's row from this member's row of the donor now: the seam {@link CausalNode#joinRowStart}. */
    static final class RowFromDonorNode extends CausalNode {
        RowFromDonorNode(CausalConfig c, Ticker t, StepLog log) {
            super(c, t, log);
        }

        @Override
        protected VectorClock joinRowStart(NodeId donor, VectorClock start) {
            return state().known().get(donor);
        }
    }

    private static List<StepLogFile> read(List<Path> files) {
        List<StepLogFile> logs = new ArrayList<>();
        files.forEach(f -> logs.add(StepLogFile.read(f)));
        return logs;
    }

    private static int indexOf(List<ObjectNode> steps, String action) {
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).path("action").asText().equals(action)) {
                return i;
            }
        }
        throw new AssertionError("no " + action + " in the log");
    }

    private static Rejection.Tried tried(Validation v) {
        assertThat(v.rejection()).as("%s", v.report()).isNotNull();
        assertThat(v.rejection().tried()).hasSize(1);
        return v.rejection().tried().get(0);
    }
}
