package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.StepLogFile;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.steplog.StepLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * DESIGN.md link 5 for Strategies 5 and 6: impl's {@link GatherWorld} over S5Server and S6Server
 * cores (skewed clocks, T_e > 0, the cores' margins; periodic and push syncs as DSyncs received by
 * {@code recvPeerSync}) logs a seeded GatherProperties schedule and its fair suffix, and TLC accepts
 * the log as a behaviour of ExactlyOnceS5Msg / ExactlyOnceS6Msg (TraceExactlyOnceS5 / S6). Controls,
 * as GatherWorldValidationTest's for Strategy 4: the stale-sync schedule over cores without the
 * watermark is rejected at the sync's receipt that drops the delivered note; a second delivery
 * inserted by hand and a removed step are rejected. 60 of 60 seeds (1-30 per strategy, this
 * schedule) were accepted in a one-off run; the stored logs gather-s5-world-seed14 and
 * gather-s6-world-seed3 (validated with the family's stored logs) are two of them, byte for byte
 * {@code GatherWorldLogs.run(S5, file, 14)} and {@code run(S6, file, 3)} when they were stored.
 */
class GatherTimedWorldValidationTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"S5", "S6"})
    void aSeededScheduleOfTheWorldIsABehaviourOfTheSpec(Strategy strategy) throws Exception {
        long seed = 5;
        Path log = run(strategy, dir.resolve("world.jsonl"), seed);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("GatherWorld, " + strategy + ", seed " + seed + ": " + v.summary());
        assertThat(v.accepted()).as("%s seed %d\n%s\n%s", strategy, seed, v.report(), Files.readString(log)).isTrue();
    }

    /**
     * The finding: before the world ended the server's session at a client crash (as the timed
     * specs' ClientCrash does), Strategy 6's seed 5 kept the dead session gathering, and TLC rejects
     * its RecvD (line 31), a step of a session ExactlyOnceS6Msg has already ended.
     */
    @Test
    void aSessionKeptAfterItsClientCrashedIsRejected() {
        Validation v = TestValidators.IN_JVM.validate(List.of(TestValidators.REPO.root()
                .resolve("conformance/src/test/resources/validate/findings/s6-dead-session-after-client-crash.jsonl")));
        System.out.println("Finding, S6 dead session after a client crash:\n" + v.report());
        GatherWorldLogs.assertRejectedAt(v, "\"step\":31,", "\"action\":\"RecvD\"");
    }

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"S5", "S6"})
    void theStaleSyncOverCoresWithoutTheWatermarkIsRejectedAtItsReceipt(Strategy strategy) throws Exception {
        Path good = staleSync(strategy, dir.resolve("watermark.jsonl"), true);
        Validation ok = TestValidators.IN_JVM.validate(List.of(good));
        assertThat(ok.accepted()).as("the same schedule with the watermark\n%s", ok.report()).isTrue();

        Path log = staleSync(strategy, dir.resolve("broken.jsonl"), false);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, " + strategy + " GatherWorld without the watermark:\n" + v.report());
        GatherWorldLogs.assertRejectedAt(v, "\"action\":\"RecvPeerSync\"", "\"server\":\"A\"", "\"K\":[]");
    }

    /**
     * Issue 20 item 6's margins: S5SkewTest's Example 5 (ii) at the clocks' edges over cores whose
     * freshness window leaves the 2ε out (the seam of S5SkewTest's control) is rejected at B's
     * StartSession, which trusts A's sync where the spec's window (T_r - 2ε - T_e) pulls from A;
     * the same schedule over the real cores is accepted.
     */
    @Test
    void coresLeavingTheSkewOutOfTheWindowAreRejectedAtTheSessionThatTrustsAStaleSync() throws Exception {
        Validation ok = TestValidators.IN_JVM.validate(List.of(skewExample(dir.resolve("skew.jsonl"), false)));
        assertThat(ok.accepted()).as("Example 5 (ii) over the real cores\n%s", ok.report()).isTrue();

        Validation v = TestValidators.IN_JVM.validate(List.of(skewExample(dir.resolve("no-skew.jsonl"), true)));
        System.out.println("Control, S5 GatherWorld with the 2 skew left out of the window:\n" + v.report());
        GatherWorldLogs.assertRejectedAt(v, "\"action\":\"StartSession\"", "\"server\":\"B\"", "\"stale\":[]");
    }

    static Path skewExample(Path file, boolean skewLeftOut) {
        GatherWorld world = S5SkewTest.world();
        if (skewLeftOut) {
            world.withSkewLeftOutOfFreshness();
        }
        try (StepLog log = StepLog.open(file, world.header())) {
            world.logSteps(log);
            S5SkewTest.exampleFiveWithSync(world);
        }
        return file;
    }

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"S5", "S6"})
    void aSecondDeliveryInsertedByHandIsRejectedAtIt(Strategy strategy) throws Exception {
        StepLogFile log = StepLogFile.read(run(strategy, dir.resolve("world.jsonl"), 1));
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        int at = GatherWorldLogs.first(steps, "ADeliverOK");
        ObjectNode again = steps.get(at).deepCopy();
        again.put("step", 0);
        steps.add(at + 1, again);
        Validation v = TestValidators.IN_JVM.validateLogs(List.of(log.withSteps(steps)));
        System.out.println("Control, " + strategy + ", a second ADeliverOK inserted:\n" + v.report());
        GatherWorldLogs.assertRejectedAt(v, "\"step\":0", "\"action\":\"ADeliverOK\"");
    }

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"S5", "S6"})
    void aLogWithAStepRemovedIsRejected(Strategy strategy) throws Exception {
        StepLogFile log = StepLogFile.read(run(strategy, dir.resolve("world.jsonl"), 1));
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        // An EndGather whose next line is an aDeliver of that session: without it the call has no session to be in.
        int at = -1;
        for (int i = 0; i + 1 < steps.size() && at < 0; i++) {
            if (steps.get(i).path("action").asText().equals("EndGather")
                    && steps.get(i + 1).path("action").asText().startsWith("ADeliver")
                    && steps.get(i + 1).path("server").equals(steps.get(i).path("server"))) {
                at = i;
            }
        }
        assertThat(at).as("an EndGather followed by its aDeliver").isNotNegative();
        int removed = steps.get(at).path("step").asInt();
        int next = steps.get(at + 1).path("step").asInt();
        steps.remove(at);
        Validation v = TestValidators.IN_JVM.validateLogs(List.of(log.withSteps(steps)));
        System.out.println("Control, " + strategy + ", EndGather (step " + removed + ") removed:\n" + v.report());
        GatherWorldLogs.assertRejectedAt(v, "\"step\":" + next + ",");
    }

    static Path run(Strategy strategy, Path file, long seed) {
        return GatherWorldLogs.run(strategy, file, seed);
    }

    /** GatherStaleSyncTest's schedule: B's sync built before n1 lands at A after A delivered n1. */
    static Path staleSync(Strategy strategy, Path file, boolean watermark) {
        GatherWorld world = GatherWorldLogs.world(strategy);
        if (!watermark) {
            world.withoutWatermark();
        }
        try (StepLog log = StepLog.open(file, world.header())) {
            world.logSteps(log);
            world.sync(1, 0);            // B's round: K = {}, D = {}, seen 0, held in the network
            world.create(0);
            world.connect(0);
            for (int i = 0; i < 4; i++) { // the gather (5: B never synced; 6: nothing to pull), aDeliver(n1)
                world.session();
                world.drainGather();
                world.reportOutcomes();
            }
            world.deliver(0, false);     // the stale sync at A
            world.connect(1);
            for (int i = 0; i < 4; i++) {
                world.session();
                world.drain();
                world.reportOutcomes();
            }
        }
        return file;
    }
}
