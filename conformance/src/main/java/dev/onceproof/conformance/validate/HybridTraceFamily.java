package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * specs/rpc/TraceHybrid.tla: the logs of one run of the hybrid (SCMP inside Birrell and Nelson's
 * RPC), the server and its clients, one cursor each. The protocol constants come from the headers
 * (Rho, the clients' Skew), the bounds from the log (MaxTime, MaxCalls, MaxCrashes). Times are made
 * relative to the server's Init line (Hybrid.tla starts at time 0); the network as the hybrid's
 * richest model has it: duplication and late delivery (AllowDup, which also stands for loss: a
 * message never delivered), and clients that time out.
 */
final class HybridTraceFamily implements TraceFamily {

    /** The fields that hold times or timestamps. */
    static final Set<String> TIMES = Set.of("now", "clock", "ts", "ackTs", "replyTs", "upper", "clientTs");

    @Override
    public String spec() {
        return "Hybrid";
    }

    @Override
    public String folder() {
        return "rpc";
    }

    @Override
    public String traceModule() {
        return "TraceHybrid";
    }

    @Override
    public List<Process> processes(List<StepLogFile> logs) {
        long origin = origin(logs);
        List<Process> all = new ArrayList<>();
        for (Process p : TraceFamily.super.processes(logs)) {
            List<Process.Line> lines = new ArrayList<>();
            p.lines().forEach(line -> lines.add(new Process.Line(relative(line.step(), origin), line.origin())));
            all.add(new Process(p.name(), lines));
        }
        return all;
    }

    /** The clock of the server's Init line: Hybrid.tla's time 0. */
    static long origin(List<StepLogFile> logs) {
        for (StepLogFile log : logs) {
            if (!log.steps().isEmpty() && log.steps().get(0).path("action").asText().equals("Init")
                    && log.steps().get(0).has("now")) {
                return log.steps().get(0).path("now").asLong();
            }
        }
        throw new StepLogException(logs.get(0).file() + ": no log of the run begins with the server's Init"
                + " line, which says when the run's time 0 was");
    }

    static ObjectNode relative(ObjectNode step, long origin) {
        return RpcTraceFamily.relative(step, origin, TIMES);
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        Map<String, JsonNode> c = new TreeMap<>();
        for (StepLogFile log : logs) {
            log.constants().fields().forEachRemaining(e -> {
                JsonNode before = c.putIfAbsent(e.getKey(), e.getValue());
                if (before != null && !before.equals(e.getValue())) {
                    throw new StepLogException(log.file() + ":1: constant " + e.getKey() + " is " + e.getValue()
                            + " here but " + before + " in another log of the run");
                }
            });
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
        JsonNode rho = c.get("Rho");
        if (rho == null) {
            throw new StepLogException(where + ": no header of the run names constant Rho");
        }
        List<String> skews = new ArrayList<>();
        long maxSkew = 0;
        for (String conn : conns) {
            long s = c.containsKey("Skew") ? c.get("Skew").path(conn).asLong(0) : 0;
            maxSkew = Math.max(maxSkew, Math.abs(s));
            skews.add(TlaText.quote(conn) + " :> " + s);
        }
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Conns", "{" + String.join(", ", conns.stream().map(TlaText::quote).toList()) + "}");
        defs.put("Rho", TlaText.of(rho, where));
        defs.put("MaxSkew", Long.toString(maxSkew));
        defs.put("TraceSkew", "(" + String.join(" @@ ", skews) + ")");
        defs.put("AllowTimeout", "TRUE");
        defs.put("AllowDup", "TRUE");
        defs.put("LossUntil", "0");
        // A client clock ahead of real time names times up to maxTime; real time needs no more.
        defs.put("MaxTime", Long.toString(maxTime + maxSkew + 1));
        defs.put("MaxCalls", Integer.toString(calls.values().stream().mapToInt(Integer::intValue).max().orElse(0)));
        defs.put("MaxCrashes", Integer.toString(crashes));
        return defs;
    }
}
