package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * specs/exactlyonce/TraceExactlyOnceS4.tla: the log of one Strategy 4 GatherWorld run (impl's
 * jqwik gather world: GatherServer cores, atomic replication, the shared SimNetwork) against
 * ExactlyOnceS4Msg, whose purge syncs are DSync messages as the cores send them. The world is one
 * thread and writes one log, so there is one process and its order is the real order; the notes are
 * created in the order of the CreateNote lines, which is the spec's NoteIds. The logs of the
 * SIGKILL run (three server JVMs and the client's, one log per incarnation) are merged into one
 * order by {@link GatherKillRun}.
 */
final class GatherTraceFamily implements TraceFamily {

    @Override
    public String spec() {
        return "ExactlyOnceS4Msg";
    }

    @Override
    public String folder() {
        return "exactlyonce";
    }

    @Override
    public String traceModule() {
        return "TraceExactlyOnceS4";
    }

    /** The world's one log as one process; the SIGKILL run's logs merged into one order ({@link GatherKillRun}). */
    @Override
    public List<Process> processes(List<StepLogFile> logs) {
        return GatherKillRun.isKillRun(logs) ? GatherKillRun.processes(logs) : TraceFamily.super.processes(logs);
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        return GatherKillRun.isKillRun(logs) ? GatherKillRun.constants(logs, processes)
                : gatherConstants(logs, processes, "Strategy 4");
    }

    /** The constants every gather world's log gives: Strategies 5 and 6 add the timed ones. */
    static Map<String, String> gatherConstants(List<StepLogFile> logs, List<Process> processes, String strategy) {
        StepLogFile first = logs.get(0);
        String where = first.file() + ":1";
        if (logs.size() != 1 || processes.size() != 1) {
            throw new StepLogException(where + ": a " + strategy + " run is one log (the world is one process), not "
                    + logs.size());
        }
        if (!first.mode().equals("msg")) {
            throw new StepLogException(where + ": mode " + first.mode()
                    + ": the logs refine " + first.spec() + ", syncs as messages (mode \"msg\")");
        }
        List<String> notes = new ArrayList<>();
        for (Process.Line line : processes.get(0).lines()) {
            if (line.step().path("action").asText().equals("CreateNote")) {
                notes.add(line.step().path("note").asText());
            }
        }
        if (notes.isEmpty()) {
            throw new StepLogException(where + ": no CreateNote line: nothing to validate");
        }
        int lines = processes.get(0).lines().size();
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Servers", TlaText.setOf(need(first, "Servers", where), where));
        defs.put("Client", TlaText.of(need(first, "Client", where), where));
        defs.put("NoteIds", "<<" + String.join(", ", notes.stream().map(TlaText::quote).toList()) + ">>");
        defs.put("MaxNotes", Integer.toString(notes.size()));
        // A line spends at most one fault: above any run's count, it enables every step (outside the VIEW).
        defs.put("MaxFaults", Integer.toString(lines + 10));
        // The world's network duplicates; the spec keeps a received message when AllowDup.
        defs.put("AllowDup", "TRUE");
        defs.put("Cut", "{}");
        return defs;
    }

    static JsonNode need(StepLogFile log, String name, String where) {
        JsonNode v = log.constants().get(name);
        if (v == null) {
            throw new StepLogException(where + ": the header names no constant " + name);
        }
        return v;
    }
}
