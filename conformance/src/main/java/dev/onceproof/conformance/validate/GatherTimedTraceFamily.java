package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * specs/exactlyonce/TraceExactlyOnceS5.tla and TraceExactlyOnceS6.tla: the log of one Strategy 5 or
 * 6 GatherWorld run against ExactlyOnceS5Msg or ExactlyOnceS6Msg, whose periodic and push syncs are
 * DSync messages as the cores send them. Strategy 4's constants ({@link GatherTraceFamily}) and the
 * timed ones the header names: the clock offsets on the spec's time line, MaxSkew, the cores'
 * margins (SkewAllowance, Te), Boundary and, for Strategy 5, T_r. MaxTime is the log's own: its
 * Tick lines and T_r beyond (Strategy 5's connection may end only while now + T_r fits).
 */
final class GatherTimedTraceFamily implements TraceFamily {

    private final String strategy;

    /** @param strategy "S5" or "S6" */
    GatherTimedTraceFamily(String strategy) {
        this.strategy = strategy;
    }

    @Override
    public String spec() {
        return "ExactlyOnce" + strategy + "Msg";
    }

    @Override
    public String folder() {
        return "exactlyonce";
    }

    @Override
    public String traceModule() {
        return "TraceExactlyOnce" + strategy;
    }

    /** The world's one log as one process; the Strategy 5 or 6 SIGKILL run merged in spec time ({@link GatherTimedKillRun}). */
    @Override
    public List<Process> processes(List<StepLogFile> logs) {
        if (GatherKillRun.isKillRun(logs)) {
            return GatherTimedKillRun.processes(logs);
        }
        return TraceFamily.super.processes(logs);
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        if (GatherKillRun.isKillRun(logs)) {
            return GatherTimedKillRun.constants(logs, processes);
        }
        Map<String, String> defs = GatherTraceFamily.gatherConstants(logs, processes, "Strategy " + strategy.substring(1));
        StepLogFile first = logs.get(0);
        String where = first.file() + ":1";
        long ticks = processes.get(0).lines().stream()
                .filter(l -> l.step().path("action").asText().equals("Tick")).count();
        long tr = 0;
        if (strategy.equals("S5")) {
            tr = GatherTraceFamily.need(first, "Tr", where).asLong();
            defs.put("Tr", Long.toString(tr));
        }
        defs.put("MaxTime", Long.toString(ticks + tr + 1));
        defs.put("Boundary", TlaText.of(GatherTraceFamily.need(first, "Boundary", where), where));
        // Definitions of ExactlyOnceTimed that a model overrides (`<-` in the generated cfg).
        JsonNode offsets = GatherTraceFamily.need(first, "ClockOffset", where);
        if (!offsets.isObject()) {
            throw new StepLogException(where + ": ClockOffset " + offsets + " is not a server -> offset map");
        }
        defs.put("ClockOffset", TlaText.map(offsets, where, true));
        for (String name : List.of("MaxSkew", "SkewAllowance", "Te")) {
            defs.put(name, TlaText.of(GatherTraceFamily.need(first, name, where), where));
        }
        return defs;
    }
}
