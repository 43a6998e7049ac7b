package dev.onceproof.conformance.tlc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Budgeted and checkpointed runs on Slow.tla, whose 201 x 201 states (each made dear on purpose) take one TLC worker several
 * seconds, so a budget of one second always stops it part way.
 */
class TlcBudgetTest {

    private static final long ALL_STATES = 201L * 201L;
    private static final long WHOLE_DEPTH = 1 + 200 + 200;
    private static final long WHOLE_GENERATED = 1 + 2L * 200 * 201;

    @TempDir
    Path tmp;

    private final TlcRunner runner = new TlcRunner();

    private TlcRequest slow(Path dir) {
        return TlcRequest.modelCheck(dir.resolve("Slow.tla"), dir.resolve("Slow.cfg"), dir, false, Duration.ofMinutes(3));
    }

    @Test
    void aRunStoppedByItsBudgetIsIncompleteAndSaysHowFarItGot() {
        TlcResult r = runner.run(slow(TestSpecs.dir()).withBudget(Duration.ofSeconds(1)));
        assertThat(r.outcome()).as(r.summary()).isEqualTo(Outcome.INCOMPLETE);
        assertThat(r.verdict()).isEqualTo("incomplete");
        assertThat(r.distinctStates()).isGreaterThan(0).isLessThan(ALL_STATES);
        assertThat(r.depth()).isGreaterThan(0).isLessThan(400);
        assertThat(r.message()).contains("budget of 1 s").contains("states left on its queue");
        assertThat(r.actions()).containsExactly("IncX", "IncY", "Never");
        assertThat(r.untakenActions()).containsExactly("Never");
    }

    @Test
    void aRunThatEndsWithinItsBudgetPassesAsBefore() {
        TlcResult r = runner.run(TlcRequest.modelCheck(TestSpecs.file("Counter.tla"), TestSpecs.file("CounterPass.cfg"),
                TestSpecs.dir(), false, Duration.ofMinutes(2)).withBudget(Duration.ofSeconds(60)));
        assertThat(r.outcome()).isEqualTo(Outcome.PASS);
        assertThat(r.distinctStates()).isEqualTo(45);
        assertThat(r.untakenActions()).containsExactly("Never");
    }

    @Test
    void aRunRecoveredFromItsCheckpointEndsWithTheCountOfAnUninterruptedRun() throws IOException {
        Path spec = copySlow(tmp.resolve("spec"));
        Path checkpoints = tmp.resolve("checkpoints");
        // 2 s, not 1: under load (27 on 2 cores) a 1 s budget let the run get past only 15 states, and
        // a checkpoint of the first few leaves a recovered run nothing to save, so the comparison
        // below could not tell recovery from a fresh start. Slow takes several seconds idle.
        TlcResult stopped = runner.run(slow(spec).withCheckpoint(checkpoints).withBudget(Duration.ofSeconds(2)));
        assertThat(stopped.outcome()).as(stopped.summary()).isEqualTo(Outcome.INCOMPLETE);
        TlcCheckpoint cp = TlcCheckpoint.of(slow(spec).withCheckpoint(checkpoints), new TlcRunner().jvm().jarName());
        assertThat(cp.latest()).as("a checkpoint under " + cp.metadir()).isPresent();

        TlcResult recovered = runner.run(slow(spec).withCheckpoint(checkpoints));
        assertThat(recovered.outcome()).isEqualTo(Outcome.PASS);
        // What an uninterrupted run gives, known from Slow.tla without running it (a run of its own
        // cost this test several seconds): (N+1)^2 states, the longest behaviour N IncX and N IncY
        // after Init, and every state generated once from Init plus once per enabled IncX or IncY.
        assertThat(recovered.distinctStates()).isEqualTo(ALL_STATES);
        assertThat(recovered.depth()).isEqualTo(WHOLE_DEPTH);
        // It went on from the checkpoint rather than from the start: it generated fewer states.
        assertThat(recovered.statesGenerated()).isLessThan(WHOLE_GENERATED);
        assertThat(cp.metadir()).doesNotExist(); // a finished run needs its checkpoint no more
    }

    @Test
    void aChangedSpecDoesNotRecoverTheCheckpointOfTheOldOne() throws IOException {
        Path spec = copySlow(tmp.resolve("spec"));
        Path checkpoints = tmp.resolve("checkpoints");
        TlcResult stopped = runner.run(slow(spec).withCheckpoint(checkpoints).withBudget(Duration.ofSeconds(1)));
        assertThat(stopped.outcome()).isEqualTo(Outcome.INCOMPLETE);
        String jar = runner.jvm().jarName();
        assertThat(TlcCheckpoint.of(slow(spec).withCheckpoint(checkpoints), jar).latest()).isPresent();

        Files.writeString(spec.resolve("Slow.cfg"), "CONSTANT N = 20\nINIT Init\nNEXT Next\n");
        TlcCheckpoint changed = TlcCheckpoint.of(slow(spec).withCheckpoint(checkpoints), jar);
        assertThat(changed.latest()).isEmpty();
        TlcResult r = runner.run(slow(spec).withCheckpoint(checkpoints));
        assertThat(r.outcome()).isEqualTo(Outcome.PASS);
        assertThat(r.distinctStates()).isEqualTo(21L * 21L);
    }

    private static Path copySlow(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String f : new String[] {"Slow.tla", "Slow.cfg"}) {
            Files.copy(TestSpecs.file(f), dir.resolve(f));
        }
        return dir;
    }
}
