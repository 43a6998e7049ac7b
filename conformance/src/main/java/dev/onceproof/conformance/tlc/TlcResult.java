package dev.onceproof.conformance.tlc;

import java.time.Duration;
import java.util.List;

/**
 * What one TLC run found, in the terms the manifest and the reports use.
 *
 * @param outcome          pass, which kind of violation, an error or a timeout
 * @param property         the violated invariant or property; "deadlock" for a deadlock; null otherwise
 * @param message          TLC's error text (parse errors, evaluation errors, timeouts); null on a pass
 * @param location         "line L, col C of module M" where TLC or SANY named one; null otherwise
 * @param distinctStates   distinct states found (-1 if TLC did not say, as in -simulate)
 * @param statesGenerated  states generated (-1 if TLC did not say)
 * @param depth            depth of the state graph search (-1 if TLC did not say)
 * @param wallTime         measured around the TLC process
 * @param counterexample   the behaviour for a violation (or evaluation error); empty otherwise
 * @param actions          the sub-actions of Next that TLC's -coverage report listed (empty if not asked)
 * @param printed          text TLC printed outside messages after SANY finished (PrintT output)
 * @param exitCode         TLC's exit code (-1 after a timeout)
 * @param untakenActions   for a run with a coverage report (every budgeted run): the sub-actions of
 *                         Next that generated no state in the last report, in the report's order;
 *                         empty otherwise
 */
public record TlcResult(Outcome outcome, String property, String message, String location,
                        long distinctStates, long statesGenerated, int depth, Duration wallTime,
                        List<TraceState> counterexample, List<String> actions, List<String> printed,
                        int exitCode, List<String> untakenActions) {

    public TlcResult {
        counterexample = List.copyOf(counterexample);
        actions = List.copyOf(actions);
        printed = List.copyOf(printed);
        untakenActions = List.copyOf(untakenActions);
    }

    /** A result without a coverage report's untaken actions. */
    public TlcResult(Outcome outcome, String property, String message, String location, long distinctStates,
                     long statesGenerated, int depth, Duration wallTime, List<TraceState> counterexample,
                     List<String> actions, List<String> printed, int exitCode) {
        this(outcome, property, message, location, distinctStates, statesGenerated, depth, wallTime,
                counterexample, actions, printed, exitCode, List.of());
    }

    /** The same result with another outcome and message (a timeout, a budget that ended). */
    public TlcResult with(Outcome newOutcome, String newMessage) {
        return new TlcResult(newOutcome, newOutcome.isViolation() ? property : null, newMessage, location,
                distinctStates, statesGenerated, depth, wallTime, counterexample, actions, printed, exitCode,
                untakenActions);
    }

    /** The outcome as the manifest's "expect" spells it: "pass", or the violated property's name. */
    public String verdict() {
        return switch (outcome) {
            case PASS -> "pass";
            case INVARIANT_VIOLATED, ACTION_PROPERTY_VIOLATED, TEMPORAL_PROPERTY_VIOLATED, DEADLOCK ->
                    property;
            case PARSE_ERROR -> "parse error";
            case ERROR -> "error";
            case TIMEOUT -> "timeout";
            case INCOMPLETE -> "incomplete";
        };
    }

    /** One line for a table: the verdict, with the error message's first line if there is one. */
    public String summary() {
        if (message == null || outcome.isViolation() || outcome == Outcome.PASS) {
            return verdict();
        }
        String text = message.strip().lines().map(String::strip).filter(l -> !l.isEmpty())
                .reduce((a, b) -> a + " / " + b).orElse("");
        if (text.length() > 300) {
            text = text.substring(0, 297) + "...";
        }
        return verdict() + ": " + text + (location != null ? " (" + location + ")" : "");
    }
}
