package dev.onceproof.conformance.trace;

import java.nio.file.Path;
import java.util.List;

/** A trace as read from (or written to) traces/&lt;family&gt;/&lt;name&gt;.jsonl. */
public record TraceFile(Path path, TraceHeader header, List<TraceStep> steps) {

    public TraceFile {
        steps = List.copyOf(steps);
    }

    /** "traces/scmp/scmp-sim-seed1.jsonl:7" for step 5, in error messages. */
    public String where(TraceStep step) {
        return path + ":" + step.line();
    }
}
