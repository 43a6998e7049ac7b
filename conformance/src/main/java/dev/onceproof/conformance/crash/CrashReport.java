package dev.onceproof.conformance.crash;

import dev.onceproof.conformance.crash.CrashExperiment.CallRecord;
import dev.onceproof.conformance.crash.CrashExperiment.CrashEvent;
import dev.onceproof.rpc.core.CallOutcome;
import dev.onceproof.rpc.runtime.ExecutionJournal;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the crash test found, from the durable journal (the truth about executions) and the
 * clients' records (the truth about what callers were told).
 *
 * <p>Safety: no call id and no operation appears twice in the journal, and no call a client saw
 * REPLIED is missing from it (the reply follows the fsync). The paper's bound (2.4, "even in the
 * worst case we will accept all messages sent after t_cr + beta"): a call rejected as a duplicate
 * by the incarnation started after crash i must have a timestamp at or below t_cr + beta, where
 * t_cr is taken as the moment the killed process was seen dead (it cannot have written latest
 * later). Calls whose outcome is unknown are allowed by the protocol; they are counted.
 *
 * <p>A failed call is charged to the last crash before it ended.
 */
public record CrashReport(CrashExperiment.Config config, List<Row> rows, Row beforeFirstCrash, int calls,
                          int replied, int rejected, int unknown, int executions, List<String> doubleExecutions,
                          List<String> doubleOps, List<String> repliedButNotExecuted, int tornTailBytes) {

    /** One crash's line in the table. */
    public record Row(int crash, long crashAtMillis, long downMillis, long storedLatestMinusDead, int unknown,
                      int rejectedRanBefore, int rejectedNeverRan, int rejectedPastBound, int repliedAfterRestart,
                      int doubleExecutions) {
    }

    public static CrashReport analyze(CrashExperiment.Config config, long t0, List<CrashEvent> crashes,
                                      List<CallRecord> calls, Path journal) throws IOException {
        ExecutionJournal.Contents contents = ExecutionJournal.read(journal);
        Map<String, Integer> byId = new HashMap<>();
        Map<String, Integer> byOp = new HashMap<>();
        for (ExecutionJournal.Entry e : contents.entries()) {
            byId.merge(e.callId(), 1, Integer::sum);
            byOp.merge(new String(e.args(), StandardCharsets.US_ASCII), 1, Integer::sum);
        }
        List<String> doubleIds = byId.entrySet().stream().filter(e -> e.getValue() > 1)
                .map(e -> e.getKey() + " x" + e.getValue()).sorted().toList();
        List<String> doubleOps = byOp.entrySet().stream().filter(e -> e.getValue() > 1)
                .map(e -> e.getKey() + " x" + e.getValue()).sorted().toList();
        Set<String> doubled = byId.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        List<String> repliedMissing = calls.stream()
                .filter(c -> c.result().outcome() == CallOutcome.REPLIED && !byId.containsKey(c.callId()))
                .map(CallRecord::callId).sorted().toList();

        List<Row> rows = new ArrayList<>();
        long firstKill = crashes.isEmpty() ? Long.MAX_VALUE : crashes.get(0).killMillis();
        Row before = row(0, t0, null, Long.MIN_VALUE, firstKill, calls, byId, doubled, config);
        for (int i = 0; i < crashes.size(); i++) {
            long to = i + 1 < crashes.size() ? crashes.get(i + 1).killMillis() : Long.MAX_VALUE;
            rows.add(row(i + 1, t0, crashes.get(i), crashes.get(i).killMillis(), to, calls, byId, doubled,
                    config));
        }
        int replied = (int) calls.stream().filter(c -> c.result().outcome() == CallOutcome.REPLIED).count();
        int rejected = (int) calls.stream()
                .filter(c -> c.result().outcome() == CallOutcome.REJECTED_AS_DUPLICATE).count();
        return new CrashReport(config, rows, before, calls.size(), replied, rejected,
                calls.size() - replied - rejected, contents.entries().size(), doubleIds, doubleOps,
                repliedMissing, contents.tornTailBytes());
    }

    /** The calls that ended in [from, to), charged to crash {@code c} (null: before the first crash). */
    private static Row row(int number, long t0, CrashEvent c, long from, long to, List<CallRecord> calls,
                           Map<String, Integer> byId, Set<String> doubled, CrashExperiment.Config config) {
        int unknown = 0;
        int ranBefore = 0;
        int neverRan = 0;
        int pastBound = 0;
        int repliedAfter = 0;
        int doubles = 0;
        for (CallRecord call : calls) {
            if (call.endMillis() < from || call.endMillis() >= to) {
                continue;
            }
            if (doubled.contains(call.callId())) {
                doubles++;
            }
            switch (call.result().outcome()) {
                case REPLIED -> {
                    if (c != null && call.startMillis() >= c.upMillis()) {
                        repliedAfter++;
                    }
                }
                case REJECTED_AS_DUPLICATE -> {
                    if (byId.containsKey(call.callId())) {
                        ranBefore++;
                    } else {
                        neverRan++;
                    }
                    long bound = c == null ? Long.MIN_VALUE : c.deadMillis() + config.beta();
                    if (call.ts() > bound) {
                        pastBound++;
                    }
                }
                default -> unknown++;
            }
        }
        return new Row(number, c == null ? 0 : c.killMillis() - t0, c == null ? 0 : c.upMillis() - c.deadMillis(),
                c == null ? 0 : c.storedLatest() - c.deadMillis(), unknown, ranBefore, neverRan, pastBound,
                repliedAfter, doubles);
    }

    /** Zero double executions, zero replies without an execution, zero rejections past the bound. */
    public boolean safe() {
        return doubleExecutions.isEmpty() && doubleOps.isEmpty() && repliedButNotExecuted.isEmpty()
                && beforeFirstCrash.rejectedPastBound() == 0
                && rows.stream().allMatch(r -> r.rejectedPastBound() == 0);
    }

    public void print(PrintStream out) {
        out.println();
        out.printf("Crash test: %d SIGKILLs (seed %d), %d clients, beta %d ms, latest every %d ms, rho %d ms,"
                        + " client retransmits every %d ms x %d%n", rows.size(), config.seed(), config.clients(),
                config.beta(), config.latestPeriod(), config.rho(), config.clientPolicy().intervalMillis(),
                config.clientPolicy().maxTries());
        out.println("t_cr = when SIGKILL was sent (ms from start); the bound uses the moment the process was"
                + " seen dead, + beta.");
        out.printf("%5s %9s %8s %14s %9s %16s %13s %14s %12s%n", "crash", "t_cr ms", "down ms",
                "latest-t_dead", "unknown", "rejected ran/new", "rej>t_cr+b", "replied after", "double exec");
        for (Row r : rows) {
            out.printf("%5d %9d %8d %14d %9d %11d/%-4d %13d %14d %12d%n", r.crash(), r.crashAtMillis(),
                    r.downMillis(), r.storedLatestMinusDead(), r.unknown(), r.rejectedRanBefore(),
                    r.rejectedNeverRan(), r.rejectedPastBound(), r.repliedAfterRestart(), r.doubleExecutions());
        }
        Row b = beforeFirstCrash;
        out.printf("before the first crash: %d unknown, %d rejected%n", b.unknown(),
                b.rejectedRanBefore() + b.rejectedNeverRan());
        out.printf("calls: %d, replied %d, rejected as duplicates %d, outcome unknown %d; journal: %d executions"
                        + "%s%n", calls, replied, rejected, unknown, executions,
                tornTailBytes > 0 ? ", torn tail " + tornTailBytes + " bytes" : "");
        out.printf("double executions (same call id twice in the journal): %d %s%n", doubleExecutions.size(),
                doubleExecutions.isEmpty() ? "" : doubleExecutions);
        out.printf("operations executed twice: %d %s%n", doubleOps.size(), doubleOps.isEmpty() ? "" : doubleOps);
        out.printf("replied but not in the journal: %d %s%n", repliedButNotExecuted.size(),
                repliedButNotExecuted.isEmpty() ? "" : repliedButNotExecuted);
        out.printf("rejected past t_cr + beta: %d%n", rows.stream().mapToInt(Row::rejectedPastBound).sum()
                + beforeFirstCrash.rejectedPastBound());
        out.println(safe() ? "RESULT: safe (at most once across every crash, paper's bound held)" : "RESULT: VIOLATED");
    }
}
