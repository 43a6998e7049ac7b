package dev.onceproof.causal;

import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * impl's restart world ({@link RestartScheduleProperties}: four nodes, n0 may crash and is suspected,
 * falsely too; n1, the coordinator of n0's removal, may crash before or after its decision and is
 * suspected, which restarts a running flush under n2; then the property's fair end) with a step log
 * per node and one for the view change's coordinator (coordinator.jsonl, the last of the logs),
 * whose header names CausalMembershipRestart. The schedule is the property's seeded one ({@code
 * RestartScheduleProperties.random(seed)}), so a seed names the same run there and here.
 */
final class RestartWorldRun {

    private RestartWorldRun() {
    }

    /** The run's logs (n0.jsonl ... in dir, coordinator.jsonl last) and the property's violations. */
    record Result(List<Path> logs, List<String> violations, boolean restartedAfterDecision) {
    }

    static Result run(Path dir, int seed, CausalWorldRun.NodeFactory factory) {
        return run(dir, RestartScheduleProperties.random(seed), factory);
    }

    static Result run(Path dir, List<CausalScheduleProperties.Action> schedule, CausalWorldRun.NodeFactory factory) {
        return run(dir, schedule, factory, new ViewChange(4));
    }

    /** With this coordinator (a broken one through a seam, for a control). */
    static Result run(Path dir, int seed, CausalWorldRun.NodeFactory factory, ViewChange views) {
        return run(dir, RestartScheduleProperties.random(seed), factory, views);
    }

    static Result run(Path dir, List<CausalScheduleProperties.Action> schedule, CausalWorldRun.NodeFactory factory,
                      ViewChange views) {
        List<StepLog> logs = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try {
            CausalConfig[] group = new CausalConfig[1];
            BiFunction<CausalConfig, Ticker, CausalNode> nodes = (c, t) -> {
                Path f = dir.resolve(c.self().specName() + ".jsonl");
                StepLog log = StepLog.open(f, CausalNode.stepLogHeader(c));
                logs.add(log);
                files.add(f);
                group[0] = c;
                return factory.make(c, t, log);
            };
            RestartScheduleProperties.Flush flush = RestartScheduleProperties.run(nodes, schedule, () -> {
                Path f = dir.resolve("coordinator.jsonl");
                StepLog log = StepLog.open(f, ViewChange.restartStepLogHeader(group[0]));
                logs.add(log);
                files.add(f);
                return log;
            }, views);
            return new Result(files, RestartScheduleProperties.check(flush), flush.restartedAfterDecision);
        } finally {
            logs.forEach(StepLog::close);
        }
    }
}
