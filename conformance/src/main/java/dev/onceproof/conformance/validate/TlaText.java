package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * JSON values of a step log as TLA+ expressions (this TLC has no Json module, so the log goes into
 * the generated module as TLA+ values): numbers are integers, strings strings, booleans TRUE/FALSE,
 * arrays sequences, objects records when every key is an identifier (a line) and otherwise
 * functions {@code ("c1" :> 5 @@ ...)} (a map-valued spec variable such as ct).
 */
final class TlaText {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

    private TlaText() {
    }

    static String of(JsonNode v, String where) {
        if (v.isIntegralNumber()) {
            return v.asText();
        } else if (v.isTextual()) {
            return quote(v.asText());
        } else if (v.isBoolean()) {
            return v.asBoolean() ? "TRUE" : "FALSE";
        } else if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(e -> items.add(of(e, where)));
            return "<<" + String.join(", ", items) + ">>";
        } else if (v.isObject()) {
            return map(v, where, false);
        }
        throw new StepLogException(where + ": value " + v + " has no TLA+ form (numbers must be integers)");
    }

    /** A step line as a record; its map fields as functions of strings. */
    static String line(JsonNode step, String where) {
        List<String> fields = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = step.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (f.getKey().equals("step")) {
                continue; // the writer's counter: the file line says where, TLC need not see it
            }
            requireIdentifier(f.getKey(), where);
            fields.add(f.getKey() + " |-> " + (f.getValue().isObject() ? map(f.getValue(), where, true)
                    : of(f.getValue(), where)));
        }
        return "[" + String.join(", ", fields) + "]";
    }

    static String map(JsonNode v, String where, boolean asFunction) {
        if (v.size() == 0) {
            return "<<>>";
        }
        boolean record = !asFunction;
        for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) {
            record &= IDENTIFIER.matcher(it.next()).matches();
        }
        List<String> parts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            parts.add(record ? f.getKey() + " |-> " + of(f.getValue(), where)
                    : quote(f.getKey()) + " :> " + of(f.getValue(), where));
        }
        return record ? "[" + String.join(", ", parts) + "]" : "(" + String.join(" @@ ", parts) + ")";
    }

    static void requireIdentifier(String key, String where) {
        if (!IDENTIFIER.matcher(key).matches()) {
            throw new StepLogException(where + ": field name \"" + key + "\" is not a TLA+ identifier");
        }
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    /** A JSON array as a TLA+ set. */
    static String setOf(JsonNode array, String where) {
        if (!array.isArray()) {
            throw new StepLogException(where + ": expected an array, found " + array);
        }
        List<String> all = new ArrayList<>();
        array.forEach(e -> all.add(of(e, where)));
        return "{" + String.join(", ", all) + "}";
    }
}
