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

/**
 * DESIGN.md link 5 for Strategy 4: impl's {@link GatherWorld} (the world of GatherProperties and
 * GatherStaleSyncTest: real GatherServer cores and stores, atomic replication, the shared
 * SimNetwork with loss, duplication, T_e expiry and partitions; a peer's DSync merged and purged by
 * {@code receive}, i.e. {@code recvPeerSync}) logs a seeded GatherProperties schedule and its fair
 * suffix, and TLC accepts the log as a behaviour of ExactlyOnceS4Msg (TraceExactlyOnceS4). Controls:
 * the stale-sync schedule over cores without the watermark (the seam of GatherStaleSyncTest) is
 * rejected at the purge sync that drops the delivered note; a second delivery inserted by hand and a
 * removed step are rejected.
 */
class GatherWorldValidationTest {

    @TempDir
    Path dir;

    @Test
    void seededSchedulesOfTheWorldAreBehavioursOfTheSpec() throws Exception {
        for (long seed : new long[] {5, 14}) {
            Path log = run(dir.resolve("world-" + seed + ".jsonl"), seed);
            Validation v = TestValidators.IN_JVM.validate(List.of(log));
            System.out.println("GatherWorld, Strategy 4, seed " + seed + ": " + v.summary());
            assertThat(v.accepted()).as("seed %d\n%s\n%s", seed, v.report(), Files.readString(log)).isTrue();
        }
    }

    @Test
    void theStaleSyncOverCoresWithoutTheWatermarkIsRejectedAtItsPurge() throws Exception {
        Path good = staleSync(dir.resolve("watermark.jsonl"), true);
        Validation ok = TestValidators.IN_JVM.validate(List.of(good));
        assertThat(ok.accepted()).as("the same schedule with the watermark\n%s", ok.report()).isTrue();

        Path log = staleSync(dir.resolve("broken.jsonl"), false);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, GatherWorld over GatherServers without the watermark:\n" + v.report());
        GatherWorldLogs.assertRejectedAt(v, "\"action\":\"RecvPurgeSync\"", "\"server\":\"A\"", "\"K\":[]");
    }

    @Test
    void aSecondDeliveryInsertedByHandIsRejectedAtIt() throws Exception {
        StepLogFile log = StepLogFile.read(run(dir.resolve("world.jsonl"), 1));
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        int at = GatherWorldLogs.first(steps, "ADeliverOK");
        ObjectNode again = steps.get(at).deepCopy();
        again.put("step", 0);
        steps.add(at + 1, again);
        Validation v = TestValidators.IN_JVM.validateLogs(List.of(log.withSteps(steps)));
        System.out.println("Control, a second ADeliverOK inserted:\n" + v.report());
        GatherWorldLogs.assertRejectedAt(v, "\"step\":0", "\"action\":\"ADeliverOK\"");
    }

    @Test
    void aLogWithAStepRemovedIsRejected() throws Exception {
        StepLogFile log = StepLogFile.read(run(dir.resolve("world.jsonl"), 1));
        List<ObjectNode> steps = new ArrayList<>(log.steps());
        int at = GatherWorldLogs.first(steps, "EndGather"); // the session's gather then never ends: no aDeliver may follow
        int removed = steps.get(at).path("step").asInt();
        steps.remove(at);
        Validation v = TestValidators.IN_JVM.validateLogs(List.of(log.withSteps(steps)));
        System.out.println("Control, EndGather (step " + removed + ") removed:\n" + v.report());
        GatherWorldLogs.assertRejectedAt(v, "\"step\":" + (removed + 1) + ",");
    }

    static Path run(Path file, long seed) {
        return GatherWorldLogs.run(Strategy.S4, file, seed);
    }

    /** GatherStaleSyncTest's schedule: B's sync built before n1 lands at A after A delivered n1. */
    static Path staleSync(Path file, boolean watermark) {
        GatherWorld world = GatherWorldLogs.world(Strategy.S4);
        if (!watermark) {
            world.withoutWatermark();
        }
        try (StepLog log = StepLog.open(file, world.header())) {
            world.logSteps(log);
            world.sync(1, 0);            // B -> A: K = {}, D = {}, seen 0, held in the network
            world.create(0);
            world.connect(0);
            world.session();             // A asks B for its D
            world.deliver(1, false);     // B replies
            world.deliver(1, false);     // A merges the reply
            world.session();             // EndGather
            world.session();             // aDeliver(n1): the client processes it
            world.reportOutcomes();
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
