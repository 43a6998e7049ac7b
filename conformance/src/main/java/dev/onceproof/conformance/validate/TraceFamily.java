package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What trace validation needs to know about one spec: where its trace module is and how a set of
 * logs becomes that module's constants. Exactly-once and causal add a class here and a trace module
 * in their spec folder; nothing else changes.
 */
interface TraceFamily {

    /**
     * The family for these logs: itself, unless the logs need a richer trace module of the same
     * spec (the causal logs of a view change need CausalMembership's).
     */
    default TraceFamily forLogs(List<StepLogFile> logs) {
        return this;
    }

    /** The spec module the headers name ({@code "spec"}). */
    String spec();

    /** The spec folder under specs/ that holds the spec and its trace module. */
    String folder();

    /** The trace module (EXTENDS the spec, defines TraceSpec, TraceView, TraceProgress, ...). */
    String traceModule();

    /**
     * The logs as processes, one cursor each. By default one per file; a family merges the logs of
     * one process's incarnations (a server restarted after a kill) into one, with the steps the
     * restart implies.
     */
    default List<Process> processes(List<StepLogFile> logs) {
        List<Process> all = new ArrayList<>();
        for (StepLogFile log : logs) {
            List<Process.Line> lines = new ArrayList<>();
            for (int i = 0; i < log.steps().size(); i++) {
                lines.add(new Process.Line(log.steps().get(i), log.file() + ":" + (i + 2)));
            }
            all.add(new Process(log.process(), lines));
        }
        return all;
    }

    /** TLA+ definitions of the trace module's constants but TraceLog and ReportAt. */
    Map<String, String> constants(List<StepLogFile> logs, List<Process> processes);

    /** One process's lines, each with where it came from (file:line, or what inserted it). */
    record Process(String name, List<Line> lines) {
        public Process {
            lines = List.copyOf(lines);
        }

        public record Line(ObjectNode step, String origin) {
        }
    }

    /** A line's step rewritten into the spec's form; {@code origin} names the line in errors. */
    interface LineRewrite {
        ObjectNode apply(ObjectNode step, String origin);
    }

    /** {@code processes} with every line's step rewritten (the cursors and origins kept). */
    static List<Process> rewritten(List<Process> processes, LineRewrite rewrite) {
        List<Process> all = new ArrayList<>();
        for (Process p : processes) {
            List<Process.Line> lines = new ArrayList<>();
            for (Process.Line line : p.lines()) {
                lines.add(new Process.Line(rewrite.apply(line.step(), line.origin()), line.origin()));
            }
            all.add(new Process(p.name(), lines));
        }
        return all;
    }

    /**
     * The one log of a world run (a test world writes one log, its order the real order), checked to
     * be in {@code mode}; {@code strategy} and {@code why} (what the mode means) go into the errors.
     */
    static StepLogFile theWorldLog(List<StepLogFile> logs, String strategy, String spec, String mode, String why) {
        if (logs.size() != 1) {
            throw new StepLogException(logs.get(0).file() + ":1: a " + strategy + " run is one log (the world's), got "
                    + logs.size());
        }
        StepLogFile log = logs.get(0);
        if (!log.mode().equals(mode)) {
            throw new StepLogException(log.file() + ":1: mode " + log.mode() + ": the log refines " + spec + ", "
                    + why + " (mode \"" + mode + "\")");
        }
        return log;
    }

    /** The constant {@code name} of a world log's header; an error naming {@code where} if it has none. */
    static JsonNode needConstant(JsonNode constants, String name, String where) {
        JsonNode v = constants.get(name);
        if (v == null) {
            throw new StepLogException(where + ": the header names no constant " + name);
        }
        return v;
    }

    static TraceFamily forSpec(String spec, String where) {
        return switch (spec) {
            case "SCMP" -> new ScmpTraceFamily();
            case "RPC" -> new RpcTraceFamily();
            case "Hybrid" -> new HybridTraceFamily();
            case "ExactlyOnceS3MsgRound" -> new EoS3TraceFamily();
            case "ExactlyOnceS1Msg" -> new EoS1TraceFamily();
            case "ExactlyOnceS2Msg" -> new EoS2TraceFamily(false);
            case "ExactlyOnceS2MsgAsync" -> new EoS2TraceFamily(true);
            case "ExactlyOnceS0MsgTimed" -> new EoS0TraceFamily();
            case "ExactlyOnceS4Msg" -> new GatherTraceFamily();
            case "ExactlyOnceS5Msg" -> new GatherTimedTraceFamily("S5");
            case "ExactlyOnceS6Msg" -> new GatherTimedTraceFamily("S6");
            case "Causal" -> new CausalTraceFamily();
            default -> throw new StepLogException(where + ": no trace validation for spec \"" + spec
                    + "\" (known: SCMP, RPC, Hybrid, ExactlyOnceS0MsgTimed, ExactlyOnceS1Msg, ExactlyOnceS2Msg, ExactlyOnceS2MsgAsync, ExactlyOnceS3MsgRound, ExactlyOnceS4Msg, ExactlyOnceS5Msg, ExactlyOnceS6Msg, Causal)");
        };
    }
}
