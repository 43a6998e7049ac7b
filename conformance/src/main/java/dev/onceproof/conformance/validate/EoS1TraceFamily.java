package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * specs/exactlyonce/TraceExactlyOnceS1.tla: the log of one Strategy 1 run (EoWorld's: S1Server
 * cores, the S1Client) against ExactlyOnceS1Msg. One process per file, as by default; a line's
 * note id, written as the cores print it ({@code "A.3"}: stream A, number 3), becomes the spec's
 * {@code Id("A", 3)}, a record of server and seq, so TLC compares ids as the spec builds them. The
 * SIGKILL run (crash-eo --strategy 1 --step-logs) gives the driver's log and one per client
 * incarnation, joined as {@link #joined} says.
 */
final class EoS1TraceFamily implements TraceFamily {

    /** The kill run's first log, once every log is in mode msg and names the same Servers, Origins and Client. */
    private static StepLogFile sameConstants(List<StepLogFile> logs) {
        StepLogFile first = logs.get(0);
        for (StepLogFile log : logs) {
            if (!log.mode().equals("msg")) {
                throw new StepLogException(log.file() + ":1: mode " + log.mode()
                        + ": the logs refine ExactlyOnceS1Msg, syncs as messages (mode \"msg\")");
            }
            for (String name : List.of("Servers", "Origins", "Client")) {
                JsonNode v = TraceFamily.needConstant(log.constants(), name, log.file() + ":1");
                if (!v.equals(first.constants().get(name))) {
                    throw new StepLogException(log.file() + ":1: constant " + name + " is " + v + " here but "
                            + first.constants().get(name) + " in " + first.file());
                }
            }
        }
        return first;
    }

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
        List<Process> raw = killRun(logs) ? joined(logs) : TraceFamily.super.processes(logs);
        return TraceFamily.rewritten(raw, EoS1TraceFamily::withSpecId);
    }

    /** The SIGKILL run's logs (crash-eo --strategy 1 --step-logs): a header names an incarnation. */
    private static boolean killRun(List<StepLogFile> logs) {
        return logs.stream().anyMatch(l -> l.constants().has("incarnation"));
    }

    /**
     * The SIGKILL run: the driver's log (server A) and the client's incarnations, one cursor each. The
     * client's incarnations are joined with the ClientCrash each kill was. The client logs a receipt
     * after its durable write, so a kill between the two keeps the write and loses the line: the
     * restart's Recover then reads an R above the last one logged, and the receipt is put back
     * before the crash (an accepted ReceiveNote of each number R gained, from the server the killed
     * incarnation connected to), where TLC still checks it is a step the spec allows (a copy of that
     * note on the way). A kill cuts at most one such line (the client handles one note at a time).
     */
    private static List<Process> joined(List<StepLogFile> logs) {
        Map<String, List<StepLogFile>> byProcess = new LinkedHashMap<>();
        for (StepLogFile log : logs) {
            byProcess.computeIfAbsent(log.process(), k -> new ArrayList<>()).add(log);
        }
        List<Process> all = new ArrayList<>();
        byProcess.forEach((name, incarnations) -> {
            incarnations.sort(Comparator.comparingLong(f -> f.constants().path("incarnation").asLong(0)));
            List<Process.Line> lines = new ArrayList<>();
            JsonNode r = null; // R as this process last logged it
            String server = null; // the server the incarnation connected to
            for (int k = 0; k < incarnations.size(); k++) {
                StepLogFile log = incarnations.get(k);
                if (k > 0) {
                    JsonNode read = log.steps().isEmpty() ? null : log.steps().get(0).get("R");
                    if (read == null || !log.steps().get(0).path("action").asText().equals("Recover")) {
                        throw new StepLogException(log.file() + ":2: a later incarnation begins with its Recover line"
                                + " (R as read from its store)");
                    }
                    for (var e : (Iterable<Map.Entry<String, JsonNode>>) read::fields) {
                        long before = r == null ? 0 : r.path(e.getKey()).asLong(0);
                        for (long n = before + 1; n <= e.getValue().asLong(); n++) {
                            ObjectNode cut = JsonNodeFactory.instance.objectNode().put("action", "ReceiveNote")
                                    .put("server", server == null ? "A" : server).put("note", e.getKey() + "." + n)
                                    .put("verdict", "accepted");
                            lines.add(new Process.Line(cut, "reconstructed: SIGKILL cut this line; " + log.file()
                                    + " read R " + read));
                        }
                    }
                    lines.add(new Process.Line(JsonNodeFactory.instance.objectNode().put("action", "ClientCrash"),
                            "the kill before " + log.file()));
                }
                for (int i = 0; i < log.steps().size(); i++) {
                    ObjectNode step = log.steps().get(i);
                    if (step.has("R")) {
                        r = step.get("R");
                    }
                    if (step.path("action").asText().equals("Connect")) {
                        server = step.path("server").asText();
                    }
                    lines.add(new Process.Line(step, log.file() + ":" + (i + 2)));
                }
            }
            all.add(new Process(name, lines));
        });
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
        StepLogFile log = killRun(logs) ? sameConstants(logs)
                : TraceFamily.theWorldLog(logs, "Strategy 1", "ExactlyOnceS1Msg", "msg", "syncs as messages");
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
