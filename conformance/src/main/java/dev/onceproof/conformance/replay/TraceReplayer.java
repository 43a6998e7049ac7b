package dev.onceproof.conformance.replay;

import dev.onceproof.conformance.trace.TraceCodec;
import dev.onceproof.conformance.trace.TraceFile;
import dev.onceproof.conformance.trace.TraceFormatException;
import dev.onceproof.conformance.trace.TraceStep;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

/**
 * Replays trace files on the Java cores: reads a file strictly, dispatches on the header's spec to
 * the family's replayer, and stops at the first step where the core leaves the trace.
 */
public final class TraceReplayer {

    private final ReplayerRegistry registry;

    public TraceReplayer(ReplayerRegistry registry) {
        this.registry = registry;
    }

    public ReplayResult replay(Path file) {
        TraceFile trace;
        try {
            trace = TraceCodec.read(file);
        } catch (TraceFormatException e) {
            return new ReplayResult(file, null, 0, new ReplayResult.Failure(file + ":" + e.line(), -1, null, null,
                    List.of(), "not a valid trace: " + e.problem()));
        }
        return replay(trace);
    }

    public ReplayResult replay(TraceFile trace) {
        Path file = trace.path();
        String spec = trace.header().spec();
        FamilyReplayer replayer = registry.forSpec(spec).orElse(null);
        if (replayer == null) {
            return new ReplayResult(file, spec, 0, new ReplayResult.Failure(file + ":1", -1, null, null, List.of(),
                    "no replayer for spec \"" + spec + "\" (replayers: " + registry.specs() + ")"));
        }
        FamilyReplayer.Session session;
        try {
            session = replayer.start(trace.header());
        } catch (RuntimeException e) {
            return new ReplayResult(file, spec, 0, new ReplayResult.Failure(file + ":1", -1, null, null, List.of(),
                    "cannot set up the core from the header: " + e.getMessage()));
        }
        int done = 0;
        for (TraceStep step : trace.steps()) {
            if (!replayer.actions().contains(step.action())) {
                return fail(trace, spec, done, step, List.of(), "unknown action \"" + step.action() + "\" for spec "
                        + spec + " (known: " + new TreeSet<>(replayer.actions()) + ")");
            }
            List<Mismatch> mismatches;
            try {
                mismatches = session.apply(step);
            } catch (RuntimeException e) {
                return fail(trace, spec, done, step, List.of(), "the core refused the step: " + e);
            }
            if (!mismatches.isEmpty()) {
                return fail(trace, spec, done, step, mismatches, null);
            }
            done++;
        }
        return new ReplayResult(file, spec, done, null);
    }

    private static ReplayResult fail(TraceFile trace, String spec, int done, TraceStep step, List<Mismatch> m,
                                     String problem) {
        return new ReplayResult(trace.path(), spec, done, new ReplayResult.Failure(trace.where(step), step.step(),
                step.action(), step.params(), m, problem));
    }
}
