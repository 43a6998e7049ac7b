package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.steplog.StepLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for the exactly-once jqwik world: impl's {@link EoWorld} (the world of
 * ExactlyOnceProperties, S3StaleSyncProperties and ReplicationRoundProperties: real S3Server and
 * S3Client cores, replicas, syncs, notes and purges on a network that loses, duplicates, reorders and
 * delays within T_e, crashes rebuilt from the stores) logs a seeded schedule of its own step kinds,
 * and TLC accepts it as a behaviour of ExactlyOnceS3MsgRound; the same world over cores without the
 * replication round (the seam ReplicationRoundProperties uses) is rejected at its first early offer.
 */
class EoWorldValidationTest {

    @TempDir
    Path dir;

    @Test
    void seededSchedulesOfTheWorldAreBehavioursOfTheSpec() throws Exception {
        for (long seed : new long[] {1, 2}) {
            Path log = run(dir.resolve("world-" + seed + ".jsonl"), seed, true);
            Validation v = TestValidators.IN_JVM.validate(List.of(log));
            System.out.println("EoWorld, Strategy 3, seed " + seed + ": " + v.summary());
            assertThat(v.accepted()).as("seed %d\n%s\n%s", seed, v.report(), Files.readString(log)).isTrue();
        }
    }

    @Test
    void theWorldWithoutTheReplicationRoundIsRejectedAtAnEarlyOffer() {
        Path log = run(dir.resolve("broken.jsonl"), 1, false);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, EoWorld over S3Servers without the replication round:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement()
                .satisfies(t -> assertThat(t.text()).contains("\"action\":\"SendNote\""));
    }

    /** A seeded schedule of the world's steps, then its fair suffix (syncs, visits, purges, time). */
    static Path run(Path file, long seed, boolean round) {
        return runLogged(new EoWorld(Strategy.S3, 2, 1, 3, 2, 3, true, round), file, seed);
    }

    /** {@link #schedule} over {@code world}, its steps logged to {@code file}. */
    static Path runLogged(EoWorld world, Path file, long seed) {
        try (StepLog log = StepLog.open(file, world.header())) {
            world.logSteps(log);
            schedule(world, seed);
        }
        return file;
    }

    /**
     * The seeded schedule of two servers and one client: creations, visits, Deliver calls,
     * authorizations (Strategy 3's; a no-op for the others), timeouts, syncs, deliveries that may
     * leave a copy, losses, time, crashes; then the fair suffix. Strategy 1's test runs it too.
     */
    static void schedule(EoWorld world, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 120; i++) {
            int s = random.nextInt(2);
            int roll = random.nextInt(100);
            if (roll < 8) {
                if (world.created.size() < 4) {
                    world.create(s, 0);
                }
            } else if (roll < 14) {
                world.connect(0, random.nextInt(4) == 0 ? 2 : s);
            } else if (roll < 26) {
                world.sendNote(0);
            } else if (roll < 32) {
                world.authorize(0);
            } else if (roll < 36) {
                world.timeout(s, 0);
            } else if (roll < 44) {
                world.sync(s, 0);
            } else if (roll < 74) {
                world.deliver(random.nextInt(1 << 20), random.nextInt(4) == 0);
            } else if (roll < 79) {
                world.lose(random.nextInt(1 << 20));
            } else if (roll < 95) {
                world.tick(1);
            } else if (roll < 97) {
                world.crashClient(0);
            } else {
                world.crashServer(s);
            }
        }
        world.fairSuffix(3);
    }
}
