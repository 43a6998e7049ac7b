package dev.onceproof.conformance.tlc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns TLC 2.18's -tool messages into a {@link TlcResult}. The message texts matched here were
 * taken from running the jar on small specs (conformance/src/test/resources/tla/).
 */
public final class TlcResultReader {

    private static final Pattern INVARIANT = Pattern.compile("Invariant (\\S+) is violated");
    private static final Pattern ACTION_PROPERTY = Pattern.compile("Action property (\\S+) is violated");
    private static final Pattern STATS = Pattern.compile(
            "([\\d,]+) states generated, ([\\d,]+) distinct states found");
    private static final Pattern DEPTH = Pattern.compile("The depth of the complete state graph search is (\\d+)");
    private static final Pattern PROGRESS = Pattern.compile("Progress\\((-?\\d+)\\)");
    private static final Pattern STATE_HEADER = Pattern.compile("^(\\d+): (.*)$", Pattern.MULTILINE);
    private static final Pattern ACTION_LABEL = Pattern.compile("^<([A-Za-z_][A-Za-z0-9_]*)[ >]");
    private static final Pattern LOCATION = Pattern.compile(
            "line (\\d+), col(?:umn)? (\\d+)(?: to line \\d+, col(?:umn)? \\d+)?(?: of module (\\w+))?");
    private static final Pattern COVERAGE_ACTION = Pattern.compile("^<([A-Za-z_][A-Za-z0-9_]*) ");
    // "<IncX line 7, col 1 to line 7, col 4 of module Slow>: 240:28804": distinct new states, states generated.
    private static final Pattern COVERAGE_COUNTS = Pattern.compile(">: (\\d+):(\\d+)\\s*$");
    private static final Pattern QUEUE_LEFT = Pattern.compile("([\\d,]+) states left on queue");
    private static final Pattern FINISHED = Pattern.compile("^Finished in (\\d+)ms");
    /** "The coverage statistics at ...": a new report begins (TLC prints one per interval and one at the end). */
    private static final int COVERAGE_START = 2201;
    private static final int FINISHED_CODE = 2186;
    /**
     * A simulation's progress ("Progress(-1) at ...: 1586 states generated, -1 distinct states found,
     * -1 states left on queue."), the last one at its end: the states it checked in all.
     */
    private static final int SIMULATION_PROGRESS = 2209;
    private static final Pattern SIMULATION_STATES = Pattern.compile("([\\d,]+) states generated");

    private TlcResultReader() {
    }

    /**
     * @param temporalName the name to give a temporal violation, which TLC does not name (the cfg's
     *                     only PROPERTY when it has exactly one); null for "temporal property"
     */
    public static TlcResult read(List<TlcMessage> messages, Duration wall, int exitCode, String temporalName) {
        return read(messages, wall, exitCode, temporalName, null);
    }

    /**
     * @param budget the run's budget ({@link TlcRequest#budget}), or null. TLC 2.18 stopped by
     *               {@code -Dtlc2.TLC.stopAfter} still says "Model checking completed. No error has
     *               been found." (code 2193) and exits 0; what tells it apart is the queue it leaves
     *               ("N states left on queue" with N > 0). When the queue is empty but TLC ran for at
     *               least the budget, the stop may have come as the last state was taken off the queue,
     *               so that too is {@link Outcome#INCOMPLETE}: never a pass that might not be one.
     */
    public static TlcResult read(List<TlcMessage> messages, Duration wall, int exitCode, String temporalName,
                                 Duration budget) {
        Outcome outcome = null;
        String property = null;
        String message = null;
        String location = null;
        long distinct = -1;
        long generated = -1;
        int depth = -1;
        int progressDepth = -1;
        List<TraceState> trace = new ArrayList<>();
        List<String> actions = new ArrayList<>();
        java.util.Map<String, Long> coverage = new java.util.LinkedHashMap<>();
        long queueLeft = -1;
        long finishedMs = -1;
        List<String> printed = new ArrayList<>();
        StringBuilder sany = new StringBuilder();
        boolean sanyDone = false;
        for (TlcMessage m : messages) {
            String t = m.text();
            switch (m.code()) {
                case TlcMessage.FREE_TEXT -> {
                    if (sanyDone) {
                        printed.add(t);
                    } else {
                        sany.append(t).append('\n');
                    }
                }
                case 2219 -> sanyDone = true; // "SANY finished."
                case TlcMessage.SUCCESS -> outcome = first(outcome, Outcome.PASS);
                case TlcMessage.INVARIANT_VIOLATED, TlcMessage.INVARIANT_VIOLATED_INITIAL -> {
                    if (outcome == null) {
                        outcome = Outcome.INVARIANT_VIOLATED;
                        property = group(INVARIANT, t);
                        int colon = t.indexOf(":\n");
                        if (m.code() == TlcMessage.INVARIANT_VIOLATED_INITIAL && colon >= 0) {
                            trace.add(new TraceState(1, "Initial predicate",
                                    StateText.parse(t.substring(colon + 2), "the initial state")));
                        }
                    }
                }
                case TlcMessage.ACTION_PROPERTY_VIOLATED -> {
                    if (outcome == null) {
                        outcome = Outcome.ACTION_PROPERTY_VIOLATED;
                        property = group(ACTION_PROPERTY, t);
                    }
                }
                case TlcMessage.TEMPORAL_VIOLATED -> {
                    if (outcome == null) {
                        outcome = Outcome.TEMPORAL_PROPERTY_VIOLATED;
                        property = temporalName != null ? temporalName : "temporal property";
                    }
                }
                case TlcMessage.DEADLOCK -> {
                    if (outcome == null) {
                        outcome = Outcome.DEADLOCK;
                        property = "deadlock";
                    }
                }
                case TlcMessage.PARSE_FAILED -> {
                    if (outcome == null) {
                        outcome = Outcome.PARSE_ERROR;
                        String sanyText = sany.toString().lines()
                                .filter(l -> !l.startsWith("Parsing file") && !l.startsWith("Semantic processing"))
                                .reduce("", (a, b) -> a + b + "\n").strip();
                        message = sanyText.isEmpty() ? t : sanyText;
                        location = location(message);
                    }
                }
                case TlcMessage.STATE -> trace.add(state(t));
                case TlcMessage.STUTTERING -> trace.add(new TraceState(number(t), "Stuttering", java.util.Map.of()));
                case TlcMessage.BACK_TO_STATE -> trace.add(new TraceState(number(t), t.replaceFirst("^\\d+: ", "")
                        .replaceAll("[<>:]", "").strip(), java.util.Map.of()));
                case TlcMessage.STATS -> {
                    Matcher s = STATS.matcher(t);
                    if (s.find()) {
                        generated = count(s.group(1));
                        distinct = count(s.group(2));
                    }
                    String q = group(QUEUE_LEFT, t);
                    if (q != null) {
                        queueLeft = count(q);
                    }
                }
                case TlcMessage.SEARCH_DEPTH -> depth = Integer.parseInt(group(DEPTH, t));
                case TlcMessage.PROGRESS -> {
                    String p = group(PROGRESS, t);
                    if (p != null) {
                        progressDepth = Integer.parseInt(p);
                    }
                }
                case SIMULATION_PROGRESS -> {
                    String g = group(SIMULATION_STATES, t);
                    if (g != null) {
                        generated = count(g);
                    }
                }
                case COVERAGE_START -> coverage.clear();
                case FINISHED_CODE -> {
                    String f = group(FINISHED, t);
                    if (f != null) {
                        finishedMs = Long.parseLong(f);
                    }
                }
                case TlcMessage.COVERAGE_NEXT -> {
                    String a = group(COVERAGE_ACTION, t);
                    if (a != null && !actions.contains(a)) {
                        actions.add(a);
                    }
                    Matcher c = COVERAGE_COUNTS.matcher(t);
                    if (a != null && c.find()) {
                        // One action can appear several times (one per disjunct that names it); it is
                        // taken when any of them generated a state.
                        coverage.merge(a, Long.parseLong(c.group(2)), Long::sum);
                    }
                }
                default -> {
                    if (m.isError() && outcome == null) {
                        outcome = Outcome.ERROR;
                        message = withoutBoilerplate(t);
                        location = location(t);
                    } else if (m.isError() && outcome == Outcome.ERROR && m.code() != TlcMessage.GENERAL) {
                        // The nested, specific error arrives before its 1000 wrapper; keep both.
                        message = message + "\n" + t;
                    }
                }
            }
        }
        if (outcome == null && exitCode == 0) {
            outcome = Outcome.PASS; // -simulate reports no result message when it finds nothing
        } else if (outcome == null) {
            outcome = Outcome.ERROR;
            message = "TLC exited with code " + exitCode + " without reporting a result";
        }
        if (depth < 0 && progressDepth >= 0 && distinct >= 0) {
            depth = progressDepth; // temporal checks do not print 2194; Progress(n) carries the level
        }
        List<String> untaken = coverage.entrySet().stream().filter(e -> e.getValue() == 0)
                .map(java.util.Map.Entry::getKey).toList();
        if (budget != null && outcome == Outcome.PASS
                && (queueLeft != 0 || finishedMs < 0 || finishedMs >= budget.toMillis())) {
            outcome = Outcome.INCOMPLETE;
            message = "TLC stopped when its budget of " + budget.toSeconds() + " s ended"
                    + (queueLeft > 0 ? ", with " + queueLeft + " states left on its queue"
                    : queueLeft == 0 ? " (its queue was empty, but the stop may have come before the last state's"
                    + " successors were checked)" : "");
        }
        return new TlcResult(outcome, property, message, location, distinct, generated, depth, wall,
                trace, actions, printed, exitCode, untaken);
    }

    /** Code 1000 wraps the real error in three lines of advice; keep what names the problem. */
    private static String withoutBoilerplate(String t) {
        String kept = t.lines()
                .filter(l -> !l.equals("TLC threw an unexpected exception.")
                        && !l.startsWith("This was probably caused by an error in the spec")
                        && !l.startsWith("See the User Output or TLC Console"))
                .map(l -> l.startsWith(": ") ? l.substring(2) : l)
                .reduce((a, b) -> a + "\n" + b).orElse(t);
        return kept.isBlank() ? t : kept;
    }

    private static Outcome first(Outcome seen, Outcome now) {
        return seen == null ? now : seen;
    }

    private static TraceState state(String text) {
        int nl = text.indexOf('\n');
        String head = nl < 0 ? text : text.substring(0, nl);
        Matcher h = STATE_HEADER.matcher(head);
        if (!h.find()) {
            throw new IllegalArgumentException("TLC state message without a number: \"" + head + "\"");
        }
        int number = Integer.parseInt(h.group(1));
        String label = h.group(2).strip();
        Matcher a = ACTION_LABEL.matcher(label);
        if (label.startsWith("<Initial predicate>")) {
            label = "Initial predicate";
        } else if (a.find()) {
            label = a.group(1);
        }
        String body = nl < 0 ? "" : text.substring(nl + 1);
        return new TraceState(number, label, StateText.parse(body, "state " + number + " of the counterexample"));
    }

    private static int number(String t) {
        Matcher h = STATE_HEADER.matcher(t);
        return h.find() ? Integer.parseInt(h.group(1)) : -1;
    }

    private static String location(String text) {
        Matcher l = LOCATION.matcher(text);
        if (!l.find()) {
            return null;
        }
        return "line " + l.group(1) + ", col " + l.group(2) + (l.group(3) != null ? " of module " + l.group(3) : "");
    }

    private static String group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1) : null;
    }

    private static long count(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }
}
