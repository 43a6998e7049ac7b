package dev.onceproof.conformance.verify;

import dev.onceproof.conformance.manifest.TraceEntry;
import java.time.Duration;
import java.util.Locale;

/**
 * How long one trace's TLC run may take inside verify. A trace run that takes far longer than it
 * did when its time was recorded is not going to produce what verify needs: after a spec edit a
 * targeted scenario may be unreachable, and TLC then explores the whole state space looking for it
 * (issue 18: MCScmpTraceGcDuplicate ran for over 18 minutes). So each run gets
 * max({@value #FLOOR_SECONDS} s, {@value #FACTOR} x the entry's recorded seconds); an entry with no
 * recorded time gets the per-run timeout; {@code --trace-budget} sets one budget for all. A run cut
 * short is named in the output and counts as an error of that trace, never as fresh.
 */
public record TraceBudget(Double fixedSeconds, Duration timeout) {

    public static final double FLOOR_SECONDS = 10;
    public static final double FACTOR = 5;

    public Duration of(TraceEntry entry) {
        if (fixedSeconds != null) {
            return Duration.ofMillis(Math.max(1, Math.round(fixedSeconds * 1000)));
        }
        if (entry.seconds() == null) {
            return timeout;
        }
        Duration d = Duration.ofMillis(Math.round(Math.max(FLOOR_SECONDS, FACTOR * entry.seconds()) * 1000));
        return d.compareTo(timeout) < 0 ? d : timeout;
    }

    /** "budget 10.0 s (5 x the recorded 1.2 s)", for the line naming a run cut short. */
    public String describe(TraceEntry entry) {
        String b = String.format(Locale.ROOT, "budget %.1f s", of(entry).toMillis() / 1000.0);
        if (fixedSeconds != null) {
            return b + " (--trace-budget)";
        }
        if (entry.seconds() == null) {
            return b + " (the per-run timeout: no recorded time in specs/manifest.json)";
        }
        return b + String.format(Locale.ROOT, " (max(%.0f s, %.0f x the recorded %.1f s))", FLOOR_SECONDS, FACTOR,
                entry.seconds());
    }
}
