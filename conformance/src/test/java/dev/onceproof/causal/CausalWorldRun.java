package dev.onceproof.causal;

import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * impl's causal schedule world ({@link Group}, as {@code CausalScheduleProperties} drives it) with a
 * step log per node: a seeded schedule of the property's own decisions (broadcasts, deliveries of
 * any datagram in flight, losses, duplications, a crash, time passing), then the property's fair end
 * ({@link Group#settle}). Three nodes, w 3, RTO 7, heartbeat 5, as the property runs them.
 */
final class CausalWorldRun {

    /** Builds a node that logs to the given log (a broken core through a seam, for the controls). */
    interface NodeFactory {
        CausalNode make(CausalConfig config, Ticker ticker, StepLog log);
    }

    private CausalWorldRun() {
    }

    /** The property's schedule decisions, drawn from {@code seed}. */
    static List<CausalScheduleProperties.Action> schedule(long seed, int length) {
        SplittableRandom r = new SplittableRandom(seed);
        List<CausalScheduleProperties.Action> s = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            s.add(new CausalScheduleProperties.Action(r.nextInt(10), r.nextInt(100)));
        }
        return s;
    }

    static List<Path> run(Path dir, Mode mode, long seed, int length, boolean mayCrash, int settleRounds,
                          NodeFactory factory) {
        int n = 3;
        List<StepLog> logs = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try {
            Group g = new Group(n, mode, 3, 7, 5, (c, t) -> {
                Path f = dir.resolve(c.self().specName() + ".jsonl");
                StepLog log = StepLog.open(f, CausalNode.stepLogHeader(c));
                logs.add(log);
                files.add(f);
                return factory.make(c, t, log);
            });
            CausalScheduleProperties.run(g, schedule(seed, length), mayCrash);
            g.settle(5, settleRounds);
        } finally {
            logs.forEach(StepLog::close);
        }
        return files;
    }

    static List<Path> run(Path dir, Mode mode, long seed, int length, boolean mayCrash) {
        return run(dir, mode, seed, length, mayCrash, 10, CausalNode::new);
    }
}
