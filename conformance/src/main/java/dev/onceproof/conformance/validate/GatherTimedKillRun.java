package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The logs of the Strategy 5 or 6 SIGKILL run (GatherCrashExperiment with step logs: the processes' clocks
 * in units of 10 ms since the run's start, each server's ahead by a fixed offset) as one sequence of
 * lines for TraceExactlyOnceS5.tla or TraceExactlyOnceS6.tla: {@link GatherKillRun}'s join and merge, ordered by each line's
 * {@code now} (its step's one clock reading, less the server's offset: the spec's true time) and then
 * by the microsecond it was written, with the spec's Tick steps put in.
 *
 * <p><b>Why the order is one the spec can take.</b> A step reads its clock after its inputs arrived
 * and writes its line before its outputs leave, so if line 1 happens before line 2 (same process, or
 * a message in between) then reading 1 <= write 1 < send < receipt <= reading 2 <= write 2 in real
 * time: now1 <= now2, and at1 < at2 when the nows are equal. Sorting by (now, at) therefore keeps
 * happens-before, and along the sorted lines {@code now} never goes back, so the spec's clock can
 * follow them: before each line whose now is above the spec's, one Tick line per unit (Tick's only
 * guard is {@code now < MaxTime}; MaxTime is the last line's now plus T_r, the bound that lets the
 * client's last connection end). The trace module checks every line's {@code now} against the spec's,
 * so the stamps (a DSync's and a D reply's {@code ts}, StartSession's freshness) are checked on the
 * same time line as the client's T_r.
 */
final class GatherTimedKillRun {

    private GatherTimedKillRun() {
    }

    static List<TraceFamily.Process> processes(List<StepLogFile> logs) {
        List<TraceFamily.Process.Line> merged = GatherKillRun.processes(logs).get(0).lines();
        List<TraceFamily.Process.Line> out = new ArrayList<>();
        long now = 0;
        for (TraceFamily.Process.Line line : merged) {
            JsonNode n = line.step().get("now");
            if (n == null || !n.canConvertToLong() || n.asLong() < 0) {
                throw new StepLogException(line.origin() + ": no \"now\" (the step's clock reading in units, at least 0)"
                        + " on a line of Strategy 5's kill run");
            }
            while (now < n.asLong()) {
                now++;
                ObjectNode tick = JsonNodeFactory.instance.objectNode().put("action", "Tick").put("now", now);
                out.add(new TraceFamily.Process.Line(tick, "time passes to " + now + " (before " + line.origin() + ")"));
            }
            out.add(line);
        }
        return List.of(new TraceFamily.Process("run", out));
    }

    /** {@link GatherKillRun#constants} and the timed ones every header repeats; MaxTime from the last now. */
    static Map<String, String> constants(List<StepLogFile> logs, List<TraceFamily.Process> processes) {
        Map<String, String> defs = GatherKillRun.constants(logs, processes);
        String where = logs.get(0).file() + ":1";
        JsonNode first = logs.get(0).constants();
        for (StepLogFile log : logs) {
            for (String name : List.of("ClockOffset", "MaxSkew", "SkewAllowance", "Te", "Boundary", "Tr")) {
                if (name.equals("Tr") && !first.has("Tr")) {
                    continue; // Strategy 6 has no T_r
                }
                JsonNode v = log.constants().get(name);
                if (v == null || !v.equals(first.get(name))) {
                    throw new StepLogException(log.file() + ":1: constant " + name + " is " + v + " here but "
                            + first.get(name) + " in " + logs.get(0).file() + ": one run, one set of times");
                }
            }
        }
        boolean s5 = logs.get(0).spec().equals("ExactlyOnceS5Msg");
        long tr = s5 ? GatherTraceFamily.need(logs.get(0), "Tr", where).asLong() : 0;
        List<TraceFamily.Process.Line> lines = processes.get(0).lines();
        long last = lines.isEmpty() ? 0 : lines.get(lines.size() - 1).step().path("now").asLong();
        if (s5) {
            defs.put("Tr", Long.toString(tr));
        }
        defs.put("MaxTime", Long.toString(last + tr + 1));
        defs.put("Boundary", TlaText.of(first.get("Boundary"), where));
        JsonNode offsets = first.get("ClockOffset");
        if (!offsets.isObject()) {
            throw new StepLogException(where + ": ClockOffset " + offsets + " is not a server -> offset map");
        }
        defs.put("ClockOffset", TlaText.map(offsets, where, true));
        for (String name : List.of("MaxSkew", "SkewAllowance", "Te")) {
            defs.put(name, TlaText.of(first.get(name), where));
        }
        return defs;
    }
}
