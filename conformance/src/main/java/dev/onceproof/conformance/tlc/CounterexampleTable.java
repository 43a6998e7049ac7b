package dev.onceproof.conformance.tlc;

import dev.onceproof.conformance.tla.TlaPrinter;
import dev.onceproof.conformance.tla.TlaValue;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A counterexample as an engineer reads it after breaking a spec: one row per changed variable,
 * the step's action with the parameters the spec recorded in lastAction, and the violated property.
 * The initial state shows every variable; later steps only what changed.
 */
public final class CounterexampleTable {

    private static final String LAST_ACTION = "lastAction";

    private CounterexampleTable() {
    }

    public static String render(TlcResult result) {
        List<TraceState> states = result.counterexample();
        StringBuilder sb = new StringBuilder();
        sb.append(headline(result)).append('\n');
        if (states.isEmpty()) {
            return sb.append("  (TLC printed no behaviour)\n").toString();
        }
        TextTable t = new TextTable("step", "action", "variable", "value").alignRight(0);
        Map<String, TlaValue> previous = Map.of();
        for (TraceState s : states) {
            String action = action(s);
            if (s.variables().isEmpty()) {
                t.row(s.number() - 1, action, "", "");
                continue;
            }
            boolean first = true;
            // Sorted by name: TLC's print order follows its internal variable numbering, not the spec.
            for (Map.Entry<String, TlaValue> v : new java.util.TreeMap<>(s.variables()).entrySet()) {
                if (v.getKey().equals(LAST_ACTION) || Objects.equals(previous.get(v.getKey()), v.getValue())) {
                    continue;
                }
                t.row(first ? s.number() - 1 : "", first ? action : "", v.getKey(), TlaPrinter.print(v.getValue()));
                first = false;
            }
            if (first) {
                t.row(s.number() - 1, action, "(no variable changed)", "");
            }
            previous = s.variables();
        }
        return sb.append(t.render()).toString();
    }

    private static String headline(TlcResult r) {
        int steps = Math.max(0, r.counterexample().size() - 1);
        return switch (r.outcome()) {
            case INVARIANT_VIOLATED -> "Invariant " + r.property() + " is violated after " + steps + " steps:";
            case ACTION_PROPERTY_VIOLATED -> "Action property " + r.property() + " is violated after " + steps + " steps:";
            case TEMPORAL_PROPERTY_VIOLATED -> "Temporal property " + r.property() + " is violated by this behaviour:";
            case DEADLOCK -> "Deadlock after " + steps + " steps:";
            default -> "TLC reported " + r.summary() + (r.counterexample().isEmpty() ? "" : " in this behaviour:");
        };
    }

    /** TLC's label, with lastAction's parameters when the spec records them (CONVENTIONS.md). */
    private static String action(TraceState s) {
        TlaValue last = s.variables().get(LAST_ACTION);
        if (last instanceof TlaValue.Record r) {
            String name = r.fields().stream().filter(f -> f.getKey().equals("name")).map(f -> f.getValue())
                    .filter(v -> v instanceof TlaValue.Str).map(v -> ((TlaValue.Str) v).value()).findFirst()
                    .orElse(s.label());
            String params = r.fields().stream().filter(f -> !f.getKey().equals("name"))
                    .map(f -> f.getKey() + "=" + TlaPrinter.print(f.getValue())).collect(Collectors.joining(", "));
            return params.isEmpty() ? name : name + "(" + params + ")";
        }
        return s.label().equals("Initial predicate") ? "Init" : s.label();
    }
}
