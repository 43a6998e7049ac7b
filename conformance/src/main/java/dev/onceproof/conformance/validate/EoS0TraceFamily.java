package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * specs/exactlyonce/TraceExactlyOnceS0.tla: the log of one Strategy 0 run (EoWorld's: S0Server
 * cores, the at-least-once S0Client) against ExactlyOnceS0MsgTimed. One process, the world's. The
 * spec names notes from the constant NoteIds in creation order; that is the log's CreateNote ids in
 * the order of their lines. The header gives T_e (the cores' te, the spec's Te).
 */
final class EoS0TraceFamily implements TraceFamily {

    @Override
    public String spec() {
        return "ExactlyOnceS0MsgTimed";
    }

    @Override
    public String folder() {
        return "exactlyonce";
    }

    @Override
    public String traceModule() {
        return "TraceExactlyOnceS0";
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        StepLogFile log = TraceFamily.theWorldLog(logs, "Strategy 0", "ExactlyOnceS0MsgTimed", "timed", "the forget rule's clock wait");
        String where = log.file() + ":1";
        JsonNode c = log.constants();
        List<String> ids = new ArrayList<>();
        long ticks = 0;
        for (Process p : processes) {
            for (Process.Line line : p.lines()) {
                String action = line.step().path("action").asText();
                if (action.equals("CreateNote")) {
                    ids.add(TlaText.of(line.step().path("note"), line.origin()));
                } else if (action.equals("Tick")) {
                    ticks++;
                }
            }
        }
        if (ids.isEmpty()) {
            throw new StepLogException(where + ": no CreateNote line: nothing to validate");
        }
        int lines = processes.stream().mapToInt(p -> p.lines().size()).sum();
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Servers", TlaText.setOf(TraceFamily.needConstant(c, "Servers", where), where));
        defs.put("Client", TlaText.of(TraceFamily.needConstant(c, "Client", where), where));
        defs.put("Te", TlaText.of(TraceFamily.needConstant(c, "Te", where), where));
        defs.put("NoteIds", "<<" + String.join(", ", ids) + ">>");
        defs.put("MaxNotes", Integer.toString(ids.size()));
        defs.put("MaxTime", Long.toString(ticks));
        // Above any run's faults (a line spends at most one, its unlogged sync losses one per server).
        defs.put("MaxFaults", Integer.toString((TraceFamily.needConstant(c, "Servers", where).size() + 2) * lines + 10));
        // The runtime's network duplicates; the spec keeps a received note or ack when AllowDup.
        defs.put("AllowDup", "TRUE");
        defs.put("Compact", "TRUE");
        // The model's bound on receipts (ExactlyOnceBase): S0's client processes every copy it
        // receives, so a run with a duplicating network goes past it; it bounds models, not runs.
        defs.put("MayReceive", "TRUE");
        return defs;
    }
}
