package dev.onceproof.causal;

import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * impl's view-change world ({@link MembershipScheduleProperties}: three nodes, n0 may crash and is
 * suspected, falsely too, the view change's steps interleaved with broadcasts, deliveries, losses,
 * duplications and time, then the property's fair end) with a step log per node and one for the
 * view change's coordinator (coordinator.jsonl, the last of the logs). The schedule is
 * the control test's seeded one ({@code MembershipScheduleProperties.random(seed)}), so a seed names
 * the same run there and here.
 */
final class MembershipWorldRun {

    private MembershipWorldRun() {
    }

    /** The run's logs (n1.jsonl ... in dir) and the property's violations, empty if none. */
    record Result(List<Path> logs, List<String> violations) {
    }

    static Result run(Path dir, int seed, CausalWorldRun.NodeFactory factory) {
        List<StepLog> logs = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try {
            CausalConfig[] group = new CausalConfig[1];
            List<String> violations = MembershipScheduleProperties.violations((c, t) -> {
                Path f = dir.resolve(c.self().specName() + ".jsonl");
                StepLog log = StepLog.open(f, CausalNode.stepLogHeader(c));
                logs.add(log);
                files.add(f);
                group[0] = c;
                return factory.make(c, t, log);
            }, MembershipScheduleProperties.random(seed), () -> {
                // The coordinator's own log (ViewChange), the run's last process.
                Path f = dir.resolve("coordinator.jsonl");
                StepLog log = StepLog.open(f, ViewChange.stepLogHeader(group[0]));
                logs.add(log);
                files.add(f);
                return log;
            });
            return new Result(files, violations);
        } finally {
            logs.forEach(StepLog::close);
        }
    }
}
