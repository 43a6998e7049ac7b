package dev.onceproof.conformance.replay;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.tlc.TextTable;
import java.nio.file.Path;
import java.util.List;

/**
 * The outcome of replaying one trace file.
 *
 * @param steps      steps replayed (all of them when it passed)
 * @param failure    null when the core followed the trace; else where and how it left it
 */
public record ReplayResult(Path file, String spec, int steps, Failure failure) {

    /**
     * @param where      file:line of the step, or of the broken line for a format error
     * @param step       the step number (-1 for a file that could not be read)
     * @param action     the step's action (null for a format error)
     * @param params     the step's parameters
     * @param mismatches expected (trace) vs actual (core), field by field
     * @param problem    a sentence for errors that are not a field comparison (format, unknown action,
     *                   the core threw)
     */
    public record Failure(String where, int step, String action, ObjectNode params, List<Mismatch> mismatches,
                          String problem) {
    }

    public boolean passed() {
        return failure == null;
    }

    /** The report an engineer reads: where, which step, and the differing fields as a table. */
    public String report() {
        if (failure == null) {
            return file + ": " + steps + " steps replayed, core agrees with the spec";
        }
        StringBuilder sb = new StringBuilder(failure.where()).append(": ");
        if (failure.step() >= 0) {
            sb.append("step ").append(failure.step()).append(", ").append(failure.action())
                    .append(failure.params() == null || failure.params().isEmpty() ? "" : " " + failure.params())
                    .append(": ");
        }
        if (failure.problem() != null) {
            sb.append(failure.problem()).append('\n');
        }
        if (!failure.mismatches().isEmpty()) {
            sb.append(failure.problem() == null ? "the core differs from the spec\n" : "");
            TextTable t = new TextTable("field", "spec (trace)", "core");
            failure.mismatches().forEach(m -> t.row(m.field(), m.expected(), m.actual()));
            t.render().lines().forEach(l -> sb.append("  ").append(l).append('\n'));
        }
        return sb.toString().stripTrailing();
    }
}
