package dev.onceproof.conformance.trace;

import dev.onceproof.conformance.tla.TlaValue;
import dev.onceproof.conformance.tlc.StateText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the file TLC 2.18 writes for {@code -simulate file=PREFIX,num=1}: PREFIX_0_0, a TLA+ module
 * whose definitions STATE_1, STATE_2, ... are the states of the behaviour in order, each a
 * conjunction {@code /\ var = value}. (Checked by running the jar; the name is PREFIX_worker_trace.)
 */
public final class SimulationTraceFile {

    private static final Pattern STATE = Pattern.compile("(?m)^STATE_(\\d+) == ?$");
    private static final Pattern END = Pattern.compile("(?m)^={4,}\\s*$");

    private SimulationTraceFile() {
    }

    public static List<Map<String, TlaValue>> parse(String text, String where) {
        List<Map<String, TlaValue>> states = new ArrayList<>();
        Matcher m = STATE.matcher(text);
        List<int[]> bounds = new ArrayList<>();
        while (m.find()) {
            int number = Integer.parseInt(m.group(1));
            if (number != bounds.size() + 1) {
                throw new IllegalArgumentException(where + ": expected STATE_" + (bounds.size() + 1) + ", found STATE_" + number);
            }
            bounds.add(new int[] {m.start(), m.end()});
        }
        if (bounds.isEmpty()) {
            throw new IllegalArgumentException(where + ": TLC's simulation file has no STATE_1 definition");
        }
        for (int i = 0; i < bounds.size(); i++) {
            int from = bounds.get(i)[1];
            int to = i + 1 < bounds.size() ? bounds.get(i + 1)[0] : endOf(text, from);
            states.add(StateText.parse(text.substring(from, to).strip(), where + ", STATE_" + (i + 1)));
        }
        return states;
    }

    private static int endOf(String text, int from) {
        Matcher e = END.matcher(text);
        return e.find(from) ? e.start() : text.length();
    }
}
