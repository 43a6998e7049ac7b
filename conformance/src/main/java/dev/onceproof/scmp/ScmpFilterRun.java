package dev.onceproof.scmp;

import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.InMemoryStableStorage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A short seeded run of the real {@link ConcurrentScmpFilter} with its step log on: three clients
 * in two rho classes (one fast beyond epsilon, one slow), a network that duplicates and reorders
 * (a delivered message stays deliverable), clock ticks and, where the scheme allows them, backward
 * jumps, collections, latest writes and process restarts. The world logs the environment's steps
 * (Tick, ClockJump, Send, and the Crash it causes by dropping the filter); the filter logs its own.
 * The log is what trace validation checks against specs/scmp/TraceScmp.tla.
 */
public final class ScmpFilterRun {

    static final long BETA = 5;
    static final long EPSILON = 2;
    static final Map<String, Long> RHO = Map.of("k1", 6L, "k2", 9L);
    static final long[] SKEW = {0, 3, -1};

    private final RecoveryScheme scheme;
    private final ScmpConfig config;
    private final ManualInstantSource clock = new ManualInstantSource(0);
    private final InMemoryStableStorage storage = new InMemoryStableStorage();
    private final List<ConnId> conns = new ArrayList<>();
    private final List<TimestampSource> sources = new ArrayList<>();
    private final List<long[]> net = new ArrayList<>();
    private final StepLog log;
    private final String reordering;
    private ConcurrentScmpFilter filter;
    private long now;

    private ScmpFilterRun(RecoveryScheme scheme, StepLog log, String reordering) {
        this.scheme = scheme;
        this.log = log;
        this.reordering = reordering;
        this.config = new ScmpConfig(scheme, BETA, EPSILON,
                Map.of("k1", new FixedRho(RHO.get("k1")), "k2", new FixedRho(RHO.get("k2"))),
                c -> c.value().equals("c1") ? "k1" : "k2");
        for (int i = 0; i < SKEW.length; i++) {
            conns.add(ConnId.of("c" + (i + 1)));
            // SCMP.tla Init: lastSent = skew - 1, so the first timestamp is the clock reading.
            sources.add(new TimestampSource(SKEW[i] - 1));
        }
        this.filter = new ConcurrentScmpFilter(config, clock, storage, false,
                ConcurrentScmpFilter.Reordering.valueOf(reordering), log);
    }

    /** The spec's mode string for a scheme. */
    public static String mode(RecoveryScheme scheme) {
        return switch (scheme) {
            case NON_RESILIENT -> "nonresilient";
            case RESILIENT -> "resilient";
            case MONOTONIC -> "monotonic";
        };
    }

    public static StepLog.Header header(RecoveryScheme scheme) {
        Map<String, String> classOf = new LinkedHashMap<>();
        Map<String, Long> skew = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < SKEW.length; i++) {
            String c = "c" + (i + 1);
            names.add(c);
            classOf.put(c, i == 0 ? "k1" : "k2");
            skew.put(c, SKEW[i]);
        }
        return new StepLog.Header("SCMP", mode(scheme), "server")
                .strings("Conns", names).strings("Classes", List.of("k1", "k2")).map("ClassOf", classOf)
                .map("Rho", RHO).constant("Beta", BETA).constant("Epsilon", EPSILON).map("Skew", skew);
    }

    /** Runs {@code steps} seeded steps against the real filter (or one with a reordering seam), logging to file. */
    public static Path run(Path file, RecoveryScheme scheme, long seed, int steps, String reordering) {
        try (StepLog log = StepLog.open(file, header(scheme))) {
            ScmpFilterRun run = new ScmpFilterRun(scheme, log, reordering);
            SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < steps; i++) {
                run.step(random);
            }
        }
        return file;
    }

    private void env(String action, Runnable fields) {
        synchronized (log) {
            log.step(action);
            fields.run();
            log.end();
        }
    }

    private void step(SplittableRandom random) {
        int pick = random.nextInt(100);
        if (pick < 18) {
            long by = 1 + random.nextInt(3);
            now += by;
            clock.advance(by);
            env("Tick", () -> log.field("now", now).field("clock", clock.millis()));
        } else if (pick < 21 && scheme != RecoveryScheme.MONOTONIC) {
            // 2.3: the scheme with latest on stable storage must not need a monotonic clock.
            long back = 1 + random.nextInt(2);
            clock.advance(-back);
            env("ClockJump", () -> log.field("clock", clock.millis()));
        } else if (pick < 45) {
            int c = random.nextInt(conns.size());
            long ts = sources.get(c).next(now + SKEW[c]).value();
            net.add(new long[] {c, ts});
            env("Send", () -> log.field("conn", conns.get(c).value()).field("ts", ts));
        } else if (pick < 78) {
            if (!net.isEmpty()) {
                long[] m = net.get(random.nextInt(net.size()));
                filter.receive(conns.get((int) m[0]), Timestamp.of(m[1]));
            }
        } else if (pick < 88) {
            filter.collectGarbage(conns.get(random.nextInt(conns.size())));
        } else if (pick < 97) {
            if (scheme == RecoveryScheme.RESILIENT) {
                filter.writeLatest();
            } else if (filter.inRecovery() && clock.millis() >= filter.state().refuseUntil()) {
                filter.finishRecovery();
            }
        } else if (scheme != RecoveryScheme.NON_RESILIENT) {
            // The process dies and a new one starts on the same stable storage (Fig. 2-2 / 2.2).
            env("Crash", () -> { });
            filter = new ConcurrentScmpFilter(config, clock, storage, true,
                    ConcurrentScmpFilter.Reordering.valueOf(reordering), log);
        }
    }
}
