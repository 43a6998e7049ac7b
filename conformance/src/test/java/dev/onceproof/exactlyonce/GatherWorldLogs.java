package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

/** The logged GatherWorld runs and the checks GatherWorldValidationTest and GatherTimedWorldValidationTest share. */
final class GatherWorldLogs {

    /** Strategies 5 and 6: server A one tick ahead of true time, B on it, the client one behind (GatherWorld.header). */
    static final long[] TIMED_OFFSETS = {1, 0, -1};

    private GatherWorldLogs() {
    }

    /** Two servers with aDeliver; Strategy 6's device has connected nowhere (the spec's initial H). */
    static GatherWorld world(Strategy strategy) {
        return strategy == Strategy.S4
                ? new GatherWorld(strategy, GatherWorld.Primitive.ATOMIC, new long[] {0, 0, 0}, null)
                : new GatherWorld(strategy, GatherWorld.Primitive.ATOMIC, TIMED_OFFSETS,
                        strategy == Strategy.S6 ? ClientHistory.never() : null);
    }

    /**
     * A seeded GatherProperties schedule on two servers (Strategy 6 may lose its history), the fair
     * suffix (syncs, visits), then two rounds of syncs, which purge the suffix's deliveries everywhere.
     */
    static Path run(Strategy strategy, Path file, long seed) {
        GatherWorld world = world(strategy);
        try (StepLog log = StepLog.open(file, world.header())) {
            world.logSteps(log);
            GatherProperties.run(world, GatherWorld.seededSchedule(new SplittableRandom(seed)), strategy == Strategy.S6);
            world.fairSuffix(3);
            for (int round = 0; round < 2; round++) {
                world.sync(0, 1);
                world.drain();
                world.sync(1, 0);
                world.drain();
            }
        }
        return file;
    }

    static int first(List<ObjectNode> steps, String action) {
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).path("action").asText().equals(action)) {
                return i;
            }
        }
        throw new AssertionError("the log has no " + action + " line");
    }

    /** The log is rejected at one line, which contains every part given. */
    static void assertRejectedAt(Validation v, String... parts) {
        assertThat(v.accepted()).as(v.report()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> assertThat(t.text()).contains(parts));
    }
}
