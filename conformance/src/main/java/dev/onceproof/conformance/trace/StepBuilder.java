package dev.onceproof.conformance.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.tla.TlaJson;
import dev.onceproof.conformance.tla.TlaValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the states TLC printed into trace steps: action and params from lastAction (its name and
 * its other fields), state from every other variable (specs/CONVENTIONS.md).
 */
public final class StepBuilder {

    public static final String LAST_ACTION = "lastAction";

    private StepBuilder() {
    }

    public static List<TraceStep> steps(List<Map<String, TlaValue>> states, String where) {
        List<TraceStep> steps = new ArrayList<>();
        for (int i = 0; i < states.size(); i++) {
            steps.add(step(i, states.get(i), where + ", step " + i));
        }
        return steps;
    }

    private static TraceStep step(int index, Map<String, TlaValue> vars, String where) {
        TlaValue last = vars.get(LAST_ACTION);
        if (!(last instanceof TlaValue.Record r)) {
            throw new IllegalArgumentException(where + ": the spec has no record variable lastAction"
                    + " (specs/CONVENTIONS.md: every spec records its step)");
        }
        String action = null;
        TreeMap<String, JsonNode> params = new TreeMap<>();
        for (Map.Entry<String, TlaValue> f : r.fields()) {
            if (f.getKey().equals("name")) {
                if (!(f.getValue() instanceof TlaValue.Str s)) {
                    throw new IllegalArgumentException(where + ": lastAction.name is not a string");
                }
                action = s.value();
            } else {
                params.put(f.getKey(), render(f.getValue(), where + ", lastAction." + f.getKey()));
            }
        }
        if (action == null) {
            throw new IllegalArgumentException(where + ": lastAction has no field name");
        }
        TreeMap<String, JsonNode> state = new TreeMap<>();
        vars.forEach((name, value) -> {
            if (!name.equals(LAST_ACTION)) {
                state.put(name, render(value, where + ", variable " + name));
            }
        });
        return new TraceStep(index, action, object(params), object(state), 0);
    }

    private static JsonNode render(TlaValue v, String where) {
        try {
            return TlaJson.render(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static ObjectNode object(TreeMap<String, JsonNode> fields) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        fields.forEach(o::set);
        return o;
    }
}
