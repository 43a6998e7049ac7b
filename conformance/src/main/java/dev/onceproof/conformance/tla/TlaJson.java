package dev.onceproof.conformance.tla;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * TLA+ value to JSON, as specs/CONVENTIONS.md fixes it: integer -> number, string -> string,
 * boolean -> boolean, record or string-domain function -> object with sorted keys, sequence -> array,
 * set -> array in TLC's order. A function with integer keys becomes an object keyed by the decimal
 * integer (TLC prints [i \in 0..2 |-> ..] that way); any other key, or a model value, is an error
 * naming the value, because it would not read the same in TLA+, JSON and Java.
 */
public final class TlaJson {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private TlaJson() {
    }

    public static JsonNode render(TlaValue v) {
        if (v instanceof TlaValue.Int i) {
            return F.numberNode(i.value());
        } else if (v instanceof TlaValue.Str s) {
            return F.textNode(s.value());
        } else if (v instanceof TlaValue.Bool b) {
            return F.booleanNode(b.value());
        } else if (v instanceof TlaValue.Seq s) {
            ArrayNode a = F.arrayNode();
            s.elements().forEach(e -> a.add(render(e)));
            return a;
        } else if (v instanceof TlaValue.Set s) {
            ArrayNode a = F.arrayNode();
            s.elements().forEach(e -> a.add(render(e)));
            return a;
        } else if (v instanceof TlaValue.Record r) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            r.fields().forEach(f -> sorted.put(f.getKey(), render(f.getValue())));
            return object(sorted);
        } else if (v instanceof TlaValue.Function f) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (Map.Entry<TlaValue, TlaValue> p : f.pairs()) {
                sorted.put(key(p.getKey(), f), render(p.getValue()));
            }
            return object(sorted);
        } else if (v instanceof TlaValue.ModelValue m) {
            throw new IllegalArgumentException("model value " + m.name()
                    + " cannot go into a trace: use a string (\"" + m.name() + "\"), specs/CONVENTIONS.md");
        }
        throw new IllegalArgumentException("unknown value " + v);
    }

    private static String key(TlaValue k, TlaValue.Function f) {
        if (k instanceof TlaValue.Str s) {
            return s.value();
        }
        if (k instanceof TlaValue.Int i) {
            return Long.toString(i.value());
        }
        throw new IllegalArgumentException("function key " + TlaPrinter.print(k) + " in "
                + TlaPrinter.print(f) + " is neither a string nor an integer, so it has no JSON object key");
    }

    private static ObjectNode object(TreeMap<String, JsonNode> sorted) {
        ObjectNode o = F.objectNode();
        sorted.forEach(o::set);
        return o;
    }
}
