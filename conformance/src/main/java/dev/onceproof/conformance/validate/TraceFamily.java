package dev.onceproof.conformance.validate;

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

    static TraceFamily forSpec(String spec, String where) {
        return switch (spec) {
            case "SCMP" -> new ScmpTraceFamily();
            case "RPC" -> new RpcTraceFamily();
            case "Hybrid" -> new HybridTraceFamily();
            case "ExactlyOnceS3MsgRound" -> new EoS3TraceFamily();
            case "ExactlyOnceS1Msg" -> new EoS1TraceFamily();
            case "ExactlyOnceS2Msg" -> new EoS2TraceFamily();
            case "ExactlyOnceS0MsgTimed" -> new EoS0TraceFamily();
            case "ExactlyOnceS4Msg" -> new GatherTraceFamily();
            case "ExactlyOnceS5Msg" -> new GatherTimedTraceFamily("S5");
            case "ExactlyOnceS6Msg" -> new GatherTimedTraceFamily("S6");
            case "Causal" -> new CausalTraceFamily();
            default -> throw new StepLogException(where + ": no trace validation for spec \"" + spec
                    + "\" (known: SCMP, RPC, Hybrid, ExactlyOnceS0MsgTimed, ExactlyOnceS1Msg, ExactlyOnceS2Msg, ExactlyOnceS3MsgRound, ExactlyOnceS4Msg, ExactlyOnceS5Msg, ExactlyOnceS6Msg, Causal)");
        };
    }
}
