package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * specs/exactlyonce/TraceExactlyOnceS2.tla: the log of one Strategy 2 run (EoWorld's: S2Server
 * cores, the S2Client) against ExactlyOnceS2Msg. One process per file. Strategy 2 reuses wire ids,
 * so a line's note is written as the cores print its wire id ({@code "A.1"}) with the world's
 * {@code inc} beside it; this class makes it the spec's note {@code [server, seq, inc]}, and the
 * wire ids of the sync lines' sets (msgK, msgRemoved, K, removed) records {@code [server, seq]},
 * so TLC compares them as the spec builds them.
 *
 * <p>With {@code async} (EoWorld.s2WithReplicasAsMessages), specs/exactlyonce/TraceExactlyOnceS2Async.tla:
 * the same lines plus the replicas' (ReceiveReplica, LoseReplica) and SettleNumber, against
 * ExactlyOnceS2MsgAsync with both fixes (Settle = TRUE, Tagged = TRUE: the sync lines carry msgTags,
 * each removal's issue number, made the spec's set of [server, seq, issue]).
 */
final class EoS2TraceFamily implements TraceFamily {

    /** Replicas as messages: ExactlyOnceS2MsgAsync. */
    private final boolean async;

    EoS2TraceFamily(boolean async) {
        this.async = async;
    }

    private static final Pattern SEQUENCED = Pattern.compile("(.+)\\.(\\d+)");
    private static final List<String> WIRE_SETS = List.of("msgK", "msgRemoved", "K", "removed");

    @Override
    public String spec() {
        return async ? "ExactlyOnceS2MsgAsync" : "ExactlyOnceS2Msg";
    }

    @Override
    public String folder() {
        return "exactlyonce";
    }

    @Override
    public String traceModule() {
        return async ? "TraceExactlyOnceS2Async" : "TraceExactlyOnceS2";
    }

    @Override
    public List<Process> processes(List<StepLogFile> logs) {
        return TraceFamily.rewritten(TraceFamily.super.processes(logs), EoS2TraceFamily::withSpecIds);
    }

    /** The line with its note as {@code {server, seq, inc}} and its wire-id sets as records. */
    private static ObjectNode withSpecIds(ObjectNode step, String where) {
        ObjectNode copy = step.deepCopy();
        JsonNode note = step.get("note");
        if (note != null) {
            JsonNode inc = step.get("inc");
            if (inc == null || !inc.canConvertToInt() || inc.asInt() < 0) {
                throw new StepLogException(where + ": note " + note + " has no incarnation (inc, a number >= 0)");
            }
            ObjectNode id = wireId(note, where);
            id.put("inc", inc.asInt());
            copy.remove("inc");
            copy.set("note", id);
        }
        for (String field : WIRE_SETS) {
            JsonNode ids = step.get(field);
            if (ids == null) {
                continue;
            }
            if (!ids.isArray()) {
                throw new StepLogException(where + ": " + field + " " + ids + " is not a list of wire ids");
            }
            ArrayNode out = copy.putArray(field);
            ids.forEach(i -> out.add(wireId(i, where)));
        }
        JsonNode tags = step.get("msgTags");
        if (tags != null) { // removed id -> issue number: the spec's set of [server, seq, issue]
            if (!tags.isObject()) {
                throw new StepLogException(where + ": msgTags " + tags + " is not an object of wire id -> issue number");
            }
            ArrayNode out = copy.putArray("msgTags");
            tags.fields().forEachRemaining(e -> {
                if (!e.getValue().canConvertToLong() || e.getValue().asLong() < 0) {
                    throw new StepLogException(where + ": msgTags gives " + e.getKey() + " the issue number "
                            + e.getValue() + ", not a number >= 0");
                }
                out.add(wireId(com.fasterxml.jackson.databind.node.TextNode.valueOf(e.getKey()), where)
                        .put("issue", e.getValue().asLong()));
            });
        }
        return copy;
    }

    private static ObjectNode wireId(JsonNode text, String where) {
        Matcher m = SEQUENCED.matcher(text.asText());
        if (!text.isTextual() || !m.matches()) {
            throw new StepLogException(where + ": " + text + " is not a Strategy 2 wire id (server.seq)");
        }
        ObjectNode id = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        return id.put("server", m.group(1)).put("seq", Long.parseLong(m.group(2)));
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        StepLogFile log = async
                ? TraceFamily.theWorldLog(logs, "Strategy 2", spec(), "async", "replicas as messages")
                : TraceFamily.theWorldLog(logs, "Strategy 2", spec(), "msg", "syncs as messages");
        String where = log.file() + ":1";
        JsonNode c = log.constants();
        long notes = count(processes, "CreateNote");
        if (notes == 0) {
            throw new StepLogException(where + ": no CreateNote line: nothing to validate");
        }
        JsonNode w = TraceFamily.needConstant(c, "W", where);
        if (!w.canConvertToInt() || w.asInt() < 2) {
            throw new StepLogException(where + ": W " + w + " is not a number >= 2 (the sequence space)");
        }
        int lines = processes.stream().mapToInt(p -> p.lines().size()).sum();
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Servers", TlaText.setOf(TraceFamily.needConstant(c, "Servers", where), where));
        defs.put("Origins", TlaText.setOf(TraceFamily.needConstant(c, "Origins", where), where));
        defs.put("Client", TlaText.of(TraceFamily.needConstant(c, "Client", where), where));
        defs.put("W", Integer.toString(w.asInt()));
        defs.put("MaxNotes", Long.toString(notes));
        // A server's rounds are at most the log's StartSync lines (each is one round).
        defs.put("MaxRound", Long.toString(count(processes, "StartSync")));
        // Above any run's faults (a line spends at most one, its unlogged sync losses one per server):
        // it enables every step and stays out of the VIEW.
        defs.put("MaxFaults", Integer.toString((TraceFamily.needConstant(c, "Servers", where).size() + 2) * lines + 10));
        // The runtime's network duplicates; the spec keeps a received note or ack when AllowDup.
        defs.put("AllowDup", "TRUE");
        if (async) { // the cores as fixed: what the logs are checked against (Settle = FALSE is the mutant)
            defs.put("Settle", "TRUE");
            defs.put("Tagged", "TRUE"); // rule "tag": the sync lines carry msgTags (EoWorldS2Lines)
        }
        return defs;
    }

    private static long count(List<Process> processes, String action) {
        return processes.stream().flatMap(p -> p.lines().stream())
                .filter(line -> line.step().path("action").asText().equals(action)).count();
    }
}
