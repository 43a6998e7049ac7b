package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * specs/exactlyonce/TraceExactlyOnceS3.tla: the logs of one Strategy 3 run against
 * ExactlyOnceS3MsgRound. A seeded world writes one log (its order is the real order); the SIGKILL
 * run writes the driver's (server A) and one per client incarnation, one cursor per process. A
 * client's incarnations are one process, joined with the ClientCrash each kill was; a killed
 * incarnation counts up to the kill (StepLogFile drops a torn line). The client logs a step after
 * its durable write, so a kill between the two keeps the write and loses the line: the restart's
 * Recover shows it as an R that differs from the last one logged, and the step is put back
 * before the crash (a ReceiveNote of each id R gained, a ReceivePurge of each it lost), where TLC
 * still checks it is a step the spec allows (a note of that id on the way, a free slot). A server's
 * incarnations (S3ServerMain, each log beginning with ServerRecover) are joined with the ServerCrash
 * each kill was, and the killed incarnation's last line is marked {@code cut}: TLC may take it or
 * drop it, and ServerRecover then checks the store's K and D against the spec's.
 */
final class EoS3TraceFamily implements TraceFamily {

    @Override
    public String spec() {
        return "ExactlyOnceS3MsgRound";
    }

    @Override
    public String folder() {
        return "exactlyonce";
    }

    @Override
    public String traceModule() {
        return "TraceExactlyOnceS3";
    }

    @Override
    public List<Process> processes(List<StepLogFile> logs) {
        Map<String, List<StepLogFile>> byProcess = new LinkedHashMap<>();
        for (StepLogFile log : logs) {
            byProcess.computeIfAbsent(log.process(), k -> new ArrayList<>()).add(log);
        }
        List<Process> all = new ArrayList<>();
        byProcess.forEach((name, incarnations) -> {
            incarnations.sort(Comparator.comparingLong(f -> f.constants().path("incarnation").asLong(0)));
            List<Process.Line> lines = new ArrayList<>();
            TreeSet<String> r = null; // R as this process last logged it
            for (int k = 0; k < incarnations.size(); k++) {
                StepLogFile log = incarnations.get(k);
                if (k > 0 && restartsServer(log)) {
                    markCut(lines, log);
                    lines.add(new Process.Line(JsonNodeFactory.instance.objectNode().put("action", "ServerCrash")
                            .put("server", log.steps().get(0).path("server").asText()), "the kill before " + log.file()));
                } else if (k > 0) {
                    cutSteps(log, r).forEach(step -> lines.add(new Process.Line(step,
                            "reconstructed: SIGKILL cut this line; " + log.file() + " read R " + readR(log))));
                    lines.add(new Process.Line(JsonNodeFactory.instance.objectNode().put("action", "ClientCrash"),
                            "the kill before " + log.file()));
                }
                for (int i = 0; i < log.steps().size(); i++) {
                    ObjectNode step = log.steps().get(i);
                    if (step.has("R")) {
                        r = strings(step.get("R"));
                    }
                    lines.add(new Process.Line(step, log.file() + ":" + (i + 2)));
                }
            }
            all.add(new Process(name, lines));
        });
        return all;
    }

    /** A server incarnation begins with its ServerRecover line (S3ServerMain), a client's with Init or Recover. */
    private static boolean restartsServer(StepLogFile restart) {
        return !restart.steps().isEmpty() && restart.steps().get(0).path("action").asText().equals("ServerRecover");
    }

    /**
     * The killed server incarnation's last line, if it has one, may be dropped by TLC (SkipCut in
     * TraceExactlyOnceS3.tla, whose header says why that is sound): S3Server writes a step's line
     * before its record is committed, and a server taking one request at a time can have left only
     * its last step uncommitted. Only that line: every earlier one must be taken.
     */
    private static void markCut(List<Process.Line> lines, StepLogFile restart) {
        int last = lines.size() - 1;
        if (last < 0 || lines.get(last).step().path("action").asText().equals("ServerRecover")) {
            return; // killed before its first step: nothing to drop
        }
        Process.Line line = lines.get(last);
        lines.set(last, new Process.Line(line.step().deepCopy().put("cut", true), line.origin()
                + " (the last line before the kill before " + restart.file() + ": TLC may drop it as not committed)"));
    }

    private static TreeSet<String> readR(StepLogFile restart) {
        if (restart.steps().isEmpty() || !restart.steps().get(0).path("action").asText().equals("Recover")) {
            throw new StepLogException(restart.file() + ":2: a later incarnation must begin with its Recover line"
                    + " (R as read from its store)");
        }
        return strings(restart.steps().get(0).get("R"));
    }

    /** The client steps a kill cut between the durable write and the line. */
    static List<ObjectNode> cutSteps(StepLogFile restart, Set<String> lastLogged) {
        TreeSet<String> read = readR(restart);
        List<ObjectNode> out = new ArrayList<>();
        Set<String> last = lastLogged == null ? Set.of() : lastLogged;
        for (String gone : last) {
            if (!read.contains(gone)) {
                out.add(JsonNodeFactory.instance.objectNode().put("action", "ReceivePurge").put("note", gone));
            }
        }
        for (String gained : read) {
            if (!last.contains(gained)) {
                out.add(JsonNodeFactory.instance.objectNode().put("action", "ReceiveNote").put("note", gained)
                        .put("verdict", "accepted"));
            }
        }
        return out;
    }

    private static TreeSet<String> strings(JsonNode array) {
        TreeSet<String> out = new TreeSet<>();
        if (array != null) {
            array.forEach(v -> out.add(v.asText()));
        }
        return out;
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        Map<String, JsonNode> c = new TreeMap<>();
        for (StepLogFile log : logs) {
            log.constants().fields().forEachRemaining(e -> {
                if (e.getKey().equals("incarnation")) {
                    return;
                }
                JsonNode before = c.putIfAbsent(e.getKey(), e.getValue());
                if (before != null && !before.equals(e.getValue())) {
                    throw new StepLogException(log.file() + ":1: constant " + e.getKey() + " is " + e.getValue()
                            + " here but " + before + " in another log of the run");
                }
            });
        }
        String where = logs.get(0).file() + ":1";
        if (!logs.get(0).mode().equals("round")) {
            throw new StepLogException(where + ": mode " + logs.get(0).mode()
                    + ": the logs refine ExactlyOnceS3MsgRound with the sender's numbers (mode \"round\")");
        }
        List<String> notes = creationOrder(processes);
        int lines = processes.stream().mapToInt(p -> p.lines().size()).sum();
        if (notes.isEmpty()) {
            throw new StepLogException(where + ": no CreateNote line: nothing to validate");
        }
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Servers", TlaText.setOf(need(c, "Servers", where), where));
        defs.put("Client", TlaText.of(need(c, "Client", where), where));
        defs.put("NoteIds", "<<" + String.join(", ", notes.stream().map(TlaText::quote).toList()) + ">>");
        defs.put("MaxNotes", Integer.toString(notes.size()));
        defs.put("Q", TlaText.of(need(c, "Q", where), where));
        // Above any run's faults (a line spends at most one, an Authorize's lost copies one per server
        // and one for an earlier purge): it enables every step and stays out of the VIEW.
        defs.put("MaxFaults", Integer.toString((need(c, "Servers", where).size() + 2) * lines + 10));
        // The runtime's networks duplicate; the spec keeps a received message when AllowDup.
        defs.put("AllowDup", "TRUE");
        defs.put("NumbersFromRound", "TRUE");
        return defs;
    }

    /**
     * The notes in an order the spec can create them in (it creates NoteIds[1], NoteIds[2], ... in
     * turn). One process's creations are in its line order, and so is every creation after a line
     * of another process that names a note: a process that names note Y (a replica, a sync's K, a
     * receipt) before it creates X has learnt of Y, so Y was created first, and a server's state
     * after creating Y reaches another process only in messages that name Y. Where nothing orders
     * two creations (servers creating at once, each unaware of the other's note), the ids' natural
     * order decides (n2 before n10; the threaded run numbers its notes in the order they are
     * created). The order only decides whether a log can be accepted, never what is: any order is
     * a renaming of the spec's notes.
     */
    static List<String> creationOrder(List<Process> processes) {
        Map<String, Set<String>> before = new LinkedHashMap<>(); // note -> notes created before it
        for (Process p : processes) {
            Set<String> named = new LinkedHashSet<>();
            for (Process.Line line : p.lines()) {
                ObjectNode step = line.step();
                if (step.path("action").asText().equals("CreateNote")) {
                    String x = step.path("note").asText();
                    before.computeIfAbsent(x, k -> new LinkedHashSet<>()).addAll(named);
                }
                named.addAll(notesNamed(step));
            }
        }
        List<String> order = new ArrayList<>();
        TreeSet<String> ready = new TreeSet<>(EoS3TraceFamily::natural);
        Map<String, Set<String>> waiting = new LinkedHashMap<>();
        before.forEach((x, ys) -> {
            Set<String> open = new LinkedHashSet<>(ys);
            open.retainAll(before.keySet());
            open.remove(x);
            waiting.put(x, open);
        });
        while (!waiting.isEmpty()) {
            waiting.forEach((x, open) -> {
                if (open.isEmpty()) {
                    ready.add(x);
                }
            });
            if (ready.isEmpty()) {
                throw new StepLogException("the CreateNote lines admit no order: each of " + waiting.keySet()
                        + " is named in some process before another of them is created");
            }
            String next = ready.pollFirst();
            order.add(next);
            waiting.remove(next);
            waiting.values().forEach(open -> open.remove(next));
            ready.clear();
        }
        return order;
    }

    /** The note ids a line names: its note and the sets it carries. */
    private static Set<String> notesNamed(ObjectNode step) {
        Set<String> out = new LinkedHashSet<>();
        if (step.path("note").isTextual()) {
            out.add(step.path("note").asText());
        }
        for (String f : List.of("k", "d", "K", "D", "R")) {
            step.path(f).forEach(v -> out.add(v.asText()));
        }
        return out;
    }

    /** Ids compared with their digit runs as numbers: n2 before n10. */
    static int natural(String a, String b) {
        java.util.regex.Matcher ma = DIGITS.matcher(a);
        java.util.regex.Matcher mb = DIGITS.matcher(b);
        if (ma.matches() && mb.matches() && ma.group(1).equals(mb.group(1))) {
            int c = new java.math.BigInteger(ma.group(2)).compareTo(new java.math.BigInteger(mb.group(2)));
            if (c != 0) {
                return c;
            }
        }
        return a.compareTo(b);
    }

    private static final java.util.regex.Pattern DIGITS = java.util.regex.Pattern.compile("(\\D*)(\\d+)");

    private static JsonNode need(Map<String, JsonNode> c, String name, String where) {
        JsonNode v = c.get(name);
        if (v == null) {
            throw new StepLogException(where + ": no header of the run names constant " + name);
        }
        return v;
    }
}
