package dev.onceproof.conformance.tla;

import java.util.Map;
import java.util.stream.Collectors;

/** Prints a value the way TLC does, so tests can feed the parser the text TLC would produce. */
public final class TlaPrinter {

    private TlaPrinter() {
    }

    public static String print(TlaValue v) {
        if (v instanceof TlaValue.Int i) {
            return Long.toString(i.value());
        } else if (v instanceof TlaValue.Str s) {
            return quote(s.value());
        } else if (v instanceof TlaValue.Bool b) {
            return b.value() ? "TRUE" : "FALSE";
        } else if (v instanceof TlaValue.ModelValue m) {
            return m.name();
        } else if (v instanceof TlaValue.Seq s) {
            return s.elements().stream().map(TlaPrinter::print).collect(Collectors.joining(", ", "<<", ">>"));
        } else if (v instanceof TlaValue.Set s) {
            return s.elements().stream().map(TlaPrinter::print).collect(Collectors.joining(", ", "{", "}"));
        } else if (v instanceof TlaValue.Record r) {
            return r.fields().stream().map(f -> f.getKey() + " |-> " + print(f.getValue()))
                    .collect(Collectors.joining(", ", "[", "]"));
        } else if (v instanceof TlaValue.Function f) {
            return f.pairs().stream().map(TlaPrinter::pair).collect(Collectors.joining(" @@ ", "(", ")"));
        }
        throw new IllegalArgumentException("unknown value " + v);
    }

    private static String pair(Map.Entry<TlaValue, TlaValue> p) {
        return print(p.getKey()) + " :> " + print(p.getValue());
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                case '\f' -> sb.append("\\f");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
