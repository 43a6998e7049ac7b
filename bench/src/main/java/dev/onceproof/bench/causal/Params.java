package dev.onceproof.bench.causal;

import java.util.Locale;

/** Input checks for the calculator and the simulator: the error names the parameter and the rule. */
final class Params {

    private Params() {
    }

    static void require(String name, double value, boolean ok, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s = %s %s", name, value, rule));
        }
    }

    static void require(String name, long value, boolean ok, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s = %d %s", name, value, rule));
        }
    }
}
