package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * specs/rpc/TraceRpc.tla: the logs of one real RPC run, the server (one log per incarnation) and
 * its clients (one log each). The server's incarnations are one process: their logs are joined in
 * incarnation order with the Crash each kill was, and a killed incarnation's log counts up to the
 * kill (StepLogFile drops a torn last line). Times are epoch milliseconds in the logs and become
 * relative to the first incarnation's start (header "origin"), which is RPC.tla's Init at time 0.
 */
final class RpcTraceFamily implements TraceFamily {

    /** The fields that hold times or timestamps; map-valued ones hold them in every value. */
    static final Set<String> TIMES = Set.of("now", "clock", "ts", "latest", "stableLatest", "upper", "ct");

    @Override
    public String spec() {
        return "RPC";
    }

    @Override
    public String folder() {
        return "rpc";
    }

    @Override
    public String traceModule() {
        return "TraceRpc";
    }

    @Override
    public List<Process> processes(List<StepLogFile> logs) {
        long origin = origin(logs);
        Map<String, List<StepLogFile>> byProcess = new LinkedHashMap<>();
        for (StepLogFile log : logs) {
            byProcess.computeIfAbsent(log.process(), k -> new ArrayList<>()).add(log);
        }
        List<Process> all = new ArrayList<>();
        byProcess.forEach((name, incarnations) -> {
            incarnations.sort(Comparator.comparingLong(f -> f.constants().path("incarnation").asLong(0)));
            List<Process.Line> lines = new ArrayList<>();
            Long stable = null; // the last stableLatest this process logged (absolute)
            for (int k = 0; k < incarnations.size(); k++) {
                StepLogFile log = incarnations.get(k);
                if (k > 0) {
                    cutWriteLatest(log, stable).ifPresent(w -> lines.add(new Process.Line(relative(w, origin),
                            "reconstructed: SIGKILL cut the line of a WriteLatest whose value " + log.file()
                                    + " read from stable storage")));
                    // The previous incarnation was killed: that is RPC.tla's Crash (volatile state lost).
                    lines.add(new Process.Line(JsonNodeFactory.instance.objectNode().put("action", "Crash"),
                            "the kill before " + log.file()));
                }
                for (int i = 0; i < log.steps().size(); i++) {
                    ObjectNode step = log.steps().get(i);
                    if (step.has("stableLatest")) {
                        stable = step.get("stableLatest").asLong();
                    } else if (step.path("action").asText().equals("Init")) {
                        stable = step.path("clock").asLong() + log.constants().path("Beta").asLong();
                    }
                    lines.add(new Process.Line(relative(step, origin), log.file() + ":" + (i + 2)));
                }
            }
            all.add(new Process(name, lines));
        });
        return all;
    }

    /**
     * A server writes latest to stable storage, then logs the WriteLatest (a line must not claim a
     * write that may not have happened). SIGKILL between the two leaves the write and loses the line;
     * the restart's Recover shows it, as an upper above the last stableLatest logged. That step is put
     * back before the Crash, at the clock it used (value - Beta); TLC still checks it is a WriteLatest
     * the spec allows there.
     */
    static java.util.Optional<ObjectNode> cutWriteLatest(StepLogFile restart, Long stable) {
        if (stable == null || restart.steps().isEmpty()
                || !restart.steps().get(0).path("action").asText().equals("Recover")) {
            return java.util.Optional.empty();
        }
        JsonNode upper = restart.steps().get(0).path("upper");
        if (!upper.isObject() || upper.size() == 0) {
            return java.util.Optional.empty();
        }
        long read = upper.elements().next().asLong();
        if (read <= stable) {
            return java.util.Optional.empty();
        }
        long beta = restart.constants().path("Beta").asLong();
        return java.util.Optional.of(JsonNodeFactory.instance.objectNode().put("action", "WriteLatest")
                .put("clock", read - beta).put("latest", read).put("stableLatest", read));
    }

    /** The clock of the server's Init (its first incarnation's first line): RPC.tla's time 0. */
    static long origin(List<StepLogFile> logs) {
        for (StepLogFile log : logs) {
            if (!log.steps().isEmpty() && log.steps().get(0).path("action").asText().equals("Init")) {
                return log.steps().get(0).path("clock").asLong();
            }
        }
        throw new StepLogException(logs.get(0).file() + ": no log of the run begins with the server's Init"
                + " line, which says when the run's time 0 was");
    }

    static ObjectNode relative(ObjectNode step, long origin) {
        return relative(step, origin, TIMES);
    }

    /** {@code step} with each of {@code times} (a number, or a map of numbers) less {@code origin}. */
    static ObjectNode relative(ObjectNode step, long origin, Set<String> times) {
        ObjectNode out = step.deepCopy();
        for (String f : times) {
            JsonNode v = out.get(f);
            if (v == null) {
                continue;
            }
            if (v.isObject()) {
                ObjectNode m = (ObjectNode) v;
                List<String> keys = new ArrayList<>();
                m.fieldNames().forEachRemaining(keys::add);
                keys.forEach(k -> m.put(k, m.get(k).asLong() - origin));
            } else {
                out.put(f, v.asLong() - origin);
            }
        }
        return out;
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        Map<String, JsonNode> c = new TreeMap<>();
        for (StepLogFile log : logs) {
            log.constants().fields().forEachRemaining(e -> {
                if (e.getKey().equals("incarnation")) {
                    return; // which start of the server this log is, not a constant of the spec
                }
                JsonNode before = c.putIfAbsent(e.getKey(), e.getValue());
                if (before != null && !before.equals(e.getValue())) {
                    throw new StepLogException(log.file() + ":1: constant " + e.getKey() + " is " + e.getValue()
                            + " here but " + before + " in another log of the run");
                }
            });
        }
        if (!logs.get(0).mode().equals("resilient")) {
            throw new StepLogException(logs.get(0).file() + ":1: mode " + logs.get(0).mode()
                    + ": RPC.tla models the resilient scheme of Fig. 2-2 only");
        }
        String where = logs.get(0).file() + ":1";
        Set<String> conns = new TreeSet<>();
        int crashes = 0;
        long maxTime = 0;
        Map<String, Integer> calls = new TreeMap<>();
        for (Process p : processes) {
            for (Process.Line line : p.lines()) {
                JsonNode s = line.step();
                if (s.has("conn")) {
                    conns.add(s.get("conn").asText());
                }
                maxTime = Math.max(maxTime, Math.max(s.path("now").asLong(0), s.path("clock").asLong(0)));
                switch (s.path("action").asText()) {
                    case "Crash" -> crashes++;
                    case "Call" -> calls.merge(s.get("conn").asText(), 1, Integer::sum);
                    default -> { }
                }
            }
        }
        if (conns.isEmpty()) {
            throw new StepLogException(where + ": no line names a connection");
        }
        JsonNode classes = need(c, "Classes", where);
        List<String> classOf = new ArrayList<>();
        List<String> skews = new ArrayList<>();
        for (String conn : conns) {
            JsonNode k = c.containsKey("ClassOf") ? c.get("ClassOf").get(conn) : classes.get(0);
            if (k == null) {
                throw new StepLogException(where + ": ClassOf has no class for connection " + conn);
            }
            classOf.add(TlaText.quote(conn) + " :> " + TlaText.quote(k.asText()));
            skews.add(TlaText.quote(conn) + " :> " + (c.containsKey("Skew") ? c.get("Skew").path(conn).asLong(0) : 0));
        }
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Conns", "{" + String.join(", ", conns.stream().map(TlaText::quote).toList()) + "}");
        defs.put("Classes", TlaText.setOf(classes, where));
        defs.put("ClassOf", "(" + String.join(" @@ ", classOf) + ")");
        defs.put("Rho", TlaText.map(need(c, "Rho", where), where, true));
        defs.put("Kappa", TlaText.of(need(c, "Kappa", where), where));
        defs.put("Beta", TlaText.of(need(c, "Beta", where), where));
        defs.put("Epsilon", TlaText.of(need(c, "Epsilon", where), where));
        defs.put("MaxTries", TlaText.of(need(c, "MaxTries", where), where));
        defs.put("TraceSkew", "(" + String.join(" @@ ", skews) + ")");
        defs.put("MaxSkew", Long.toString(c.containsKey("Skew") ? maxAbs(c.get("Skew")) : 0));
        // The network as RPC.tla's richest model has it: loss, duplication; clients may time out.
        defs.put("AllowTimeout", "TRUE");
        defs.put("AllowLoss", "TRUE");
        defs.put("AllowDup", "TRUE");
        defs.put("MaxTime", Long.toString(maxTime + 1));
        defs.put("MaxCalls", Integer.toString(calls.values().stream().mapToInt(Integer::intValue).max().orElse(0)));
        defs.put("MaxCrashes", Integer.toString(crashes));
        return defs;
    }

    private static JsonNode need(Map<String, JsonNode> c, String name, String where) {
        JsonNode v = c.get(name);
        if (v == null) {
            throw new StepLogException(where + ": no header of the run names constant " + name);
        }
        return v;
    }

    private static long maxAbs(JsonNode skews) {
        long max = 0;
        for (JsonNode v : skews) {
            max = Math.max(max, Math.abs(v.asLong()));
        }
        return max;
    }
}
