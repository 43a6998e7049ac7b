package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * specs/scmp/TraceScmp.tla: the protocol constants come from the header (Conns, Classes, ClassOf,
 * Rho, Beta, Epsilon, the clients' Skew), the model bounds from the log (MaxTime covers every time
 * the log names, MaxSends the Send lines, and so on), so that the bounds never reject a log.
 */
final class ScmpTraceFamily implements TraceFamily {

    @Override
    public String spec() {
        return "SCMP";
    }

    @Override
    public String folder() {
        return "scmp";
    }

    @Override
    public String traceModule() {
        return "TraceScmp";
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        StepLogFile first = logs.get(0);
        String where = first.file() + ":1";
        JsonNode c = first.constants();
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Conns", TlaText.setOf(required(c, "Conns", where), where));
        defs.put("Classes", TlaText.setOf(required(c, "Classes", where), where));
        defs.put("ClassOf", TlaText.map(required(c, "ClassOf", where), where, true));
        defs.put("Rho", TlaText.map(required(c, "Rho", where), where, true));
        defs.put("Beta", TlaText.of(required(c, "Beta", where), where));
        defs.put("Epsilon", TlaText.of(required(c, "Epsilon", where), where));
        defs.put("Mode", TlaText.quote(first.mode()));
        long maxSkew = 0;
        List<String> skews = new ArrayList<>();
        for (JsonNode conn : c.get("Conns")) {
            long s = c.path("Skew").path(conn.asText()).asLong(0);
            maxSkew = Math.max(maxSkew, Math.abs(s));
            skews.add(TlaText.quote(conn.asText()) + " :> " + s);
        }
        defs.put("TraceSkew", "(" + String.join(" @@ ", skews) + ")");
        defs.put("MaxSkew", Long.toString(maxSkew));
        long maxTime = 0;
        long maxBack = 0;
        int sends = 0;
        int crashes = 0;
        int jumps = 0;
        for (Process p : processes) {
            Long lastClock = null;
            for (Process.Line line : p.lines()) {
                JsonNode s = line.step();
                maxTime = Math.max(maxTime, Math.max(s.path("now").asLong(0), s.path("clock").asLong(0)));
                switch (s.path("action").asText()) {
                    case "Send" -> sends++;
                    case "Crash" -> crashes++;
                    case "ClockJump" -> {
                        jumps++;
                        // How far back: from the last clock reading this process logged.
                        maxBack = Math.max(maxBack, lastClock == null ? maxTime + 1 : lastClock - s.path("clock").asLong());
                    }
                    default -> { }
                }
                if (s.has("clock")) {
                    lastClock = s.get("clock").asLong();
                }
            }
        }
        // A clock set back must tick back up to the times named later, with now running ahead of it.
        defs.put("MaxTime", Long.toString(maxTime + maxBack * jumps + 1));
        defs.put("MaxSends", Integer.toString(sends));
        defs.put("MaxCrashes", Integer.toString(crashes));
        defs.put("AllowClockJump", jumps > 0 ? "TRUE" : "FALSE");
        defs.put("MaxJumps", Integer.toString(jumps));
        defs.put("MaxJumpBack", Long.toString(Math.max(maxBack, jumps > 0 ? 1 : 0)));
        return defs;
    }

    static JsonNode required(JsonNode constants, String name, String where) {
        JsonNode v = constants.get(name);
        if (v == null || v.isNull()) {
            throw new StepLogException(where + ": header constants lack " + name);
        }
        return v;
    }
}
