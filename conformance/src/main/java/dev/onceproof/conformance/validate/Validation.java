package dev.onceproof.conformance.validate;

import dev.onceproof.conformance.tla.TlaPrinter;
import dev.onceproof.conformance.tla.TlaValue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The outcome of validating one run's logs.
 *
 * @param logs      the files
 * @param spec      the spec their headers name
 * @param lines     step lines over all processes
 * @param accepted  a behaviour of the spec takes every line
 * @param states    distinct states TLC found in the acceptance run
 * @param wallTime  TLC's time (both runs on a rejection)
 * @param rejection what went wrong, for a rejection with a report
 * @param error     TLC could not check (an ASSUME the header's constants break, a value a line lacks)
 */
public record Validation(List<Path> logs, String spec, int lines, boolean accepted, long states, Duration wallTime,
                         Rejection rejection, String error) {

    public Validation {
        logs = List.copyOf(logs);
    }

    /** One line: verdict, spec, files, lines, states, time. */
    public String summary() {
        return (accepted ? "ACCEPTED" : "REJECTED") + ": " + spec + " " + names() + ", " + lines + " lines, "
                + states + " distinct states, " + String.format("%.1f", wallTime.toMillis() / 1000.0) + "s";
    }

    /** The summary and, for a rejection, the first line no reachable state takes and the state it was tried in. */
    public String report() {
        StringBuilder sb = new StringBuilder(summary()).append('\n');
        if (error != null) {
            sb.append(error).append('\n');
        }
        if (rejection == null) {
            return sb.toString();
        }
        Rejection r = rejection;
        sb.append("After ").append(r.taken()).append(" lines no reachable state takes the next line");
        sb.append(r.tried().size() > 1 ? " of any process:\n" : ":\n");
        for (Rejection.Tried t : r.tried()) {
            sb.append("  ").append(t.origin()).append(" (").append(t.process()).append(" line ").append(t.index())
                    .append("): ").append(t.text()).append('\n');
        }
        sb.append(r.states()).append(r.states() == 1 ? " spec state" : " spec states")
                .append(" took the lines before it; the first breadth-first search reached:\n");
        List<String[]> rows = new ArrayList<>();
        for (Map.Entry<String, TlaValue> f : r.state().fields()) {
            rows.add(new String[] {f.getKey(), TlaPrinter.print(f.getValue())});
        }
        int width = rows.stream().mapToInt(row -> row[0].length()).max().orElse(8);
        sb.append(String.format("  %-" + width + "s  %s%n", "variable", "value"));
        rows.forEach(row -> sb.append(String.format("  %-" + width + "s  %s%n", row[0], row[1])));
        sb.append("Spec actions enabled in it: ")
                .append(r.enabled().isEmpty() ? "none" : String.join(", ", grouped(r.enabled()))).append('\n');
        return sb.toString();
    }

    /** More than eight instances of one action are shown as the first, the count and the last. */
    static List<String> grouped(List<String> actions) {
        Map<String, List<String>> byName = new java.util.LinkedHashMap<>();
        actions.forEach(a -> byName.computeIfAbsent(a.split("\\(", 2)[0], k -> new ArrayList<>()).add(a));
        List<String> out = new ArrayList<>();
        byName.forEach((name, all) -> {
            if (all.size() > 8) {
                out.add(all.get(0) + " ... " + all.get(all.size() - 1) + " (" + all.size() + " " + name + " steps)");
            } else {
                out.addAll(all);
            }
        });
        return out;
    }

    private String names() {
        return logs.stream().map(p -> p.getFileName().toString()).toList().toString();
    }

    /** lastAction as the counterexample tables print it: Name(k=v, ...). */
    static String action(TlaValue lastAction) {
        if (!(lastAction instanceof TlaValue.Record r)) {
            return TlaPrinter.print(lastAction);
        }
        String name = "?";
        List<String> params = new ArrayList<>();
        for (Map.Entry<String, TlaValue> f : r.fields()) {
            if (f.getKey().equals("name") && f.getValue() instanceof TlaValue.Str s) {
                name = s.value();
            } else {
                params.add(f.getKey() + "=" + TlaPrinter.print(f.getValue()));
            }
        }
        return params.isEmpty() ? name : name + "(" + String.join(", ", params) + ")";
    }
}
