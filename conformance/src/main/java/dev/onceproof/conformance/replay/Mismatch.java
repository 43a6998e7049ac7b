package dev.onceproof.conformance.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One field where the core and the trace disagree, in the spec's names ("upper.k1", "verdict").
 * Values are printed as JSON so they read the same as the trace.
 */
public record Mismatch(String field, String expected, String actual) {

    public static List<Mismatch> compare(String field, JsonNode expected, JsonNode actual) {
        List<Mismatch> out = new ArrayList<>();
        diff(field, expected, actual, out);
        return out;
    }

    /** Objects compare key by key, so a map differing in one entry names that entry. */
    private static void diff(String field, JsonNode expected, JsonNode actual, List<Mismatch> out) {
        if (expected != null && actual != null && expected.isObject() && actual.isObject()) {
            TreeSet<String> keys = new TreeSet<>();
            expected.fieldNames().forEachRemaining(keys::add);
            actual.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) {
                diff(field + "." + k, expected.get(k), actual.get(k), out);
            }
            return;
        }
        if (!sameValue(expected, actual)) {
            out.add(new Mismatch(field, expected == null ? "(absent)" : expected.toString(),
                    actual == null ? "(absent)" : actual.toString()));
        }
    }

    /** Numbers compare by value: a trace read back holds longs, a core may hand over ints. */
    private static boolean sameValue(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals((x, y) -> x.isIntegralNumber() && y.isIntegralNumber()
                ? Long.compare(x.longValue(), y.longValue()) : (x.equals(y) ? 0 : 1), b);
    }

    public static List<Mismatch> compareAll(Map<String, JsonNode> expected, Map<String, JsonNode> actual) {
        List<Mismatch> out = new ArrayList<>();
        TreeSet<String> keys = new TreeSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (String k : keys) {
            diff(k, expected.get(k), actual.get(k), out);
        }
        return out;
    }
}
