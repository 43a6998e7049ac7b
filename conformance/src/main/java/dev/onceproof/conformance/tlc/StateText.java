package dev.onceproof.conformance.tlc;

import dev.onceproof.conformance.tla.TlaParseException;
import dev.onceproof.conformance.tla.TlaParser;
import dev.onceproof.conformance.tla.TlaValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the variable assignments of one printed state: {@code /\ x = 1} per variable (values may
 * run over several lines), or a bare {@code x = 1} when the spec has a single variable.
 */
public final class StateText {

    private static final Pattern CONJUNCT = Pattern.compile("(?m)^/\\\\ ([A-Za-z_][A-Za-z0-9_]*) = ");
    private static final Pattern SINGLE = Pattern.compile("^\\s*([A-Za-z_][A-Za-z0-9_]*) = ");

    private StateText() {
    }

    /** @param where names the state in errors ("state 3 of the counterexample") */
    public static Map<String, TlaValue> parse(String text, String where) {
        Map<String, TlaValue> vars = new LinkedHashMap<>();
        Matcher m = CONJUNCT.matcher(text);
        int prevEnd = -1;
        String prevName = null;
        while (m.find()) {
            if (prevName != null) {
                put(vars, prevName, text.substring(prevEnd, m.start()), where);
            }
            prevName = m.group(1);
            prevEnd = m.end();
        }
        if (prevName != null) {
            put(vars, prevName, text.substring(prevEnd), where);
            return vars;
        }
        Matcher single = SINGLE.matcher(text);
        if (single.find()) {
            put(vars, single.group(1), text.substring(single.end()), where);
            return vars;
        }
        if (!text.isBlank()) {
            throw new IllegalArgumentException(where + ": no variable assignment in \"" + text.strip() + "\"");
        }
        return vars;
    }

    private static void put(Map<String, TlaValue> vars, String name, String valueText, String where) {
        try {
            if (vars.put(name, TlaParser.parse(valueText.strip())) != null) {
                throw new IllegalArgumentException(where + ": variable " + name + " is assigned twice");
            }
        } catch (TlaParseException e) {
            throw new IllegalArgumentException(where + ", variable " + name + ": " + e.getMessage(), e);
        }
    }
}
