package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
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
        List<Process> all = new ArrayList<>();
        for (Process p : TraceFamily.super.processes(logs)) {
            List<Process.Line> lines = new ArrayList<>();
            for (Process.Line line : p.lines()) {
                lines.add(new Process.Line(withSpecId(line.step(), line.origin()), line.origin()));
            }
            all.add(new Process(p.name(), lines));
        }
        return all;
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
        if (logs.size() != 1) {
            throw new StepLogException(logs.get(0).file() + ":1: a Strategy 1 run is one log (the world's), got "
                    + logs.size());
        }
        StepLogFile log = logs.get(0);
        String where = log.file() + ":1";
        if (!log.mode().equals("msg")) {
            throw new StepLogException(where + ": mode " + log.mode()
                    + ": the log refines ExactlyOnceS1Msg, syncs as messages (mode \"msg\")");
        }
        JsonNode c = log.constants();
        long notes = processes.stream().flatMap(p -> p.lines().stream())
                .filter(line -> line.step().path("action").asText().equals("CreateNote")).count();
        if (notes == 0) {
            throw new StepLogException(where + ": no CreateNote line: nothing to validate");
        }
        int lines = processes.stream().mapToInt(p -> p.lines().size()).sum();
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Servers", TlaText.setOf(need(c, "Servers", where), where));
        defs.put("Origins", TlaText.setOf(need(c, "Origins", where), where));
        defs.put("Client", TlaText.of(need(c, "Client", where), where));
        defs.put("MaxNotes", Long.toString(notes));
        // Above any run's faults (a line spends at most one, its unlogged sync losses one per server):
        // it enables every step and stays out of the VIEW.
        defs.put("MaxFaults", Integer.toString((need(c, "Servers", where).size() + 2) * lines + 10));
        // The runtime's network duplicates; the spec keeps a received note or ack when AllowDup.
        defs.put("AllowDup", "TRUE");
        return defs;
    }

    private static JsonNode need(JsonNode c, String name, String where) {
        JsonNode v = c.get(name);
        if (v == null) {
            throw new StepLogException(where + ": the header names no constant " + name);
        }
        return v;
    }
}
