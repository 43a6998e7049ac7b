package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * specs/exactlyonce/TraceExactlyOnceS1.tla: the log of one Strategy 1 run (EoWorld's: S1Server
 * cores, the S1Client) against ExactlyOnceS1Msg. One process per file, as by default; a line's
 * note id, written as the cores print it ({@code "A.3"}: stream A, number 3), becomes the spec's
 * {@code Id("A", 3)}, a record of server and seq, so TLC compares ids as the spec builds them.
 */
final class EoS1TraceFamily implements TraceFamily {

    private static final Pattern SEQUENCED = Pattern.compile("(.+)\\.(\\d+)");

    @Override
    public String spec() {
        return "ExactlyOnceS1Msg";
    }

    @Override
    public String folder() {
        return "exactlyonce";
    }

    @Override
    public String traceModule() {
        return "TraceExactlyOnceS1";
    }

    @Override
    public List<Process> processes(List<StepLogFile> logs) {
        return TraceFamily.rewritten(TraceFamily.super.processes(logs), EoS1TraceFamily::withSpecId);
    }

    /** The line with its note as {@code {"server": x, "seq": n}}; other lines as they are. */
    private static ObjectNode withSpecId(ObjectNode step, String where) {
        JsonNode note = step.get("note");
        if (note == null) {
            return step;
        }
        Matcher m = SEQUENCED.matcher(note.asText());
        if (!note.isTextual() || !m.matches()) {
            throw new StepLogException(where + ": note " + note + " is not a Strategy 1 id (server.seq)");
        }
        ObjectNode copy = step.deepCopy();
        copy.putObject("note").put("server", m.group(1)).put("seq", Long.parseLong(m.group(2)));
        return copy;
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        StepLogFile log = TraceFamily.theWorldLog(logs, "Strategy 1", "ExactlyOnceS1Msg", "msg", "syncs as messages");
        String where = log.file() + ":1";
        JsonNode c = log.constants();
        long notes = processes.stream().flatMap(p -> p.lines().stream())
                .filter(line -> line.step().path("action").asText().equals("CreateNote")).count();
        if (notes == 0) {
            throw new StepLogException(where + ": no CreateNote line: nothing to validate");
        }
        int lines = processes.stream().mapToInt(p -> p.lines().size()).sum();
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Servers", TlaText.setOf(TraceFamily.needConstant(c, "Servers", where), where));
        defs.put("Origins", TlaText.setOf(TraceFamily.needConstant(c, "Origins", where), where));
        defs.put("Client", TlaText.of(TraceFamily.needConstant(c, "Client", where), where));
        defs.put("MaxNotes", Long.toString(notes));
        // Above any run's faults (a line spends at most one, its unlogged sync losses one per server):
        // it enables every step and stays out of the VIEW.
        defs.put("MaxFaults", Integer.toString((TraceFamily.needConstant(c, "Servers", where).size() + 2) * lines + 10));
        // The runtime's network duplicates; the spec keeps a received note or ack when AllowDup.
        defs.put("AllowDup", "TRUE");
        return defs;
    }
}
