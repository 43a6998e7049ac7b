package dev.onceproof.bench.exactlyonce;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The model parameters of Table 1 (sec. 4, L313-328), with the paper's base values. A value out of
 * its domain is refused by the constructor with a {@link ParamException} naming the parameter and
 * the rule, so no formula or simulation ever sees one.
 *
 * <p>{@code D}, {@code N} and {@code q} are whole numbers (hops, servers, slots); {@code dPrime} is a
 * continuous number of hops: with D = 30 and N = 10 no server is 10 hops away, yet d' = 10 is the
 * base value (notes X9, Z24). {@code lambda} is derived ({@code alpha + beta}) and cannot be set.
 *
 * @param D      total hops around the circle (footnote 6: N divides D)
 * @param N      servers, evenly spaced
 * @param Tc     connection duration, s
 * @param alpha  minimum delay per hop of f_d, s/hop
 * @param beta   mean of f_d's exponential tail per hop, s/hop
 * @param tcap   constant client-NAP delay, s
 * @param q      slots of the client's id list R (Strategy 3)
 * @param Tr     reconnect limit (Strategy 5), s
 * @param Tu     periodic synchronization interval (Strategy 5), s
 * @param dPrime hops to the previous connection's server (Strategy 6)
 * @param tPrime time since the previous connection (Strategy 6), s
 */
public record Params(int D, int N, double Tc, double alpha, double beta, double tcap, int q, double Tr,
        double Tu, double dPrime, double tPrime) {

    /** Names accepted by {@link #with}, in Table 1's order; the paper's spellings are aliases. */
    public static final List<String> NAMES = List.of("D", "N", "Tc", "alpha", "beta", "tcap", "q", "Tr", "Tu",
            "dprime", "tprime");

    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("t_c", "Tc"), Map.entry("α", "alpha"), Map.entry("β", "beta"), Map.entry("t_cap", "tcap"),
            Map.entry("t_r", "Tr"), Map.entry("t_u", "Tu"), Map.entry("d'", "dprime"), Map.entry("t'", "tprime"));

    public Params {
        whole("D", D, 1);
        whole("N", N, 1);
        if (D % N != 0) {
            throw new ParamException("N", "N = " + N + " does not divide D = " + D
                    + " (footnote 6: servers sit D/N hops apart)");
        }
        nonNegative("Tc", Tc);
        nonNegative("alpha", alpha);
        finite("beta", beta);
        if (beta <= 0) {
            throw new ParamException("beta", "beta = " + num(beta) + " must be > 0 (the tail of f_d has mean beta*d)");
        }
        nonNegative("tcap", tcap);
        whole("q", q, 1);
        nonNegative("Tr", Tr);
        finite("Tu", Tu);
        if (Tu <= 0) {
            throw new ParamException("Tu", "Tu = " + num(Tu) + " must be > 0 (a sync is sent every Tu seconds)");
        }
        nonNegative("dprime", dPrime);
        nonNegative("tprime", tPrime);
    }

    /** Table 1's base values. */
    public static Params base() {
        return new Params(30, 10, 15, 0.05, 0.25, 0.2, 20, 100, 300, 10, 10);
    }

    /** {@code lambda = alpha + beta}, the mean delay per hop (App. B: E(d) = lambda d). */
    public double lambda() {
        return alpha + beta;
    }

    /**
     * This point with one parameter changed. Whole-number parameters refuse a fraction; an unknown
     * name, or {@code lambda}, is refused naming it.
     */
    public Params with(String name, double v) {
        String key = canonical(name);
        return switch (key) {
            case "D" -> new Params(whole("D", v), N, Tc, alpha, beta, tcap, q, Tr, Tu, dPrime, tPrime);
            case "N" -> new Params(D, whole("N", v), Tc, alpha, beta, tcap, q, Tr, Tu, dPrime, tPrime);
            case "Tc" -> new Params(D, N, v, alpha, beta, tcap, q, Tr, Tu, dPrime, tPrime);
            case "alpha" -> new Params(D, N, Tc, v, beta, tcap, q, Tr, Tu, dPrime, tPrime);
            case "beta" -> new Params(D, N, Tc, alpha, v, tcap, q, Tr, Tu, dPrime, tPrime);
            case "tcap" -> new Params(D, N, Tc, alpha, beta, v, q, Tr, Tu, dPrime, tPrime);
            case "q" -> new Params(D, N, Tc, alpha, beta, tcap, whole("q", v), Tr, Tu, dPrime, tPrime);
            case "Tr" -> new Params(D, N, Tc, alpha, beta, tcap, q, v, Tu, dPrime, tPrime);
            case "Tu" -> new Params(D, N, Tc, alpha, beta, tcap, q, Tr, v, dPrime, tPrime);
            case "dprime" -> new Params(D, N, Tc, alpha, beta, tcap, q, Tr, Tu, v, tPrime);
            case "tprime" -> new Params(D, N, Tc, alpha, beta, tcap, q, Tr, Tu, dPrime, v);
            default -> throw new AssertionError(key);
        };
    }

    /** The value of one parameter by name (for sweeps and reports). */
    public double get(String name) {
        return switch (canonical(name)) {
            case "D" -> D;
            case "N" -> N;
            case "Tc" -> Tc;
            case "alpha" -> alpha;
            case "beta" -> beta;
            case "tcap" -> tcap;
            case "q" -> q;
            case "Tr" -> Tr;
            case "Tu" -> Tu;
            case "dprime" -> dPrime;
            case "tprime" -> tPrime;
            default -> throw new AssertionError(name);
        };
    }

    /**
     * Applies {@code "D=60,q=12,..."} to this point. Every assignment is checked before any is
     * applied to the result, and the combination is checked as a whole (so {@code D=35,N=7} works
     * in either order). A malformed assignment is refused naming it.
     */
    public Params withAll(String assignments) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (String part : assignments.split(",")) {
            String a = part.strip();
            if (a.isEmpty()) {
                continue;
            }
            int eq = a.indexOf('=');
            if (eq <= 0 || eq == a.length() - 1) {
                throw new ParamException(a, "'" + a + "' is not NAME=VALUE (names: " + String.join(", ", NAMES) + ")");
            }
            String key = canonical(a.substring(0, eq).strip());
            String text = a.substring(eq + 1).strip();
            try {
                values.put(key, Double.parseDouble(text));
            } catch (NumberFormatException e) {
                throw new ParamException(key, "'" + text + "' is not a number");
            }
        }
        Map<String, Double> all = new LinkedHashMap<>();
        for (String n : NAMES) {
            all.put(n, values.getOrDefault(n, get(n)));
        }
        return new Params(whole("D", all.get("D")), whole("N", all.get("N")), all.get("Tc"), all.get("alpha"),
                all.get("beta"), all.get("tcap"), whole("q", all.get("q")), all.get("Tr"), all.get("Tu"),
                all.get("dprime"), all.get("tprime"));
    }

    /** Every parameter by its name, for results and reports. */
    public Map<String, Double> asMap() {
        Map<String, Double> m = new LinkedHashMap<>();
        for (String n : NAMES) {
            m.put(n, get(n));
        }
        return m;
    }

    static String canonical(String name) {
        if (name.equalsIgnoreCase("lambda") || name.equals("λ")) {
            throw new ParamException(name, "lambda is alpha + beta (Table 1); set alpha or beta instead");
        }
        for (String n : NAMES) {
            if (n.equalsIgnoreCase(name)) {
                return n;
            }
        }
        String alias = ALIASES.get(name.toLowerCase(Locale.ROOT));
        if (alias != null) {
            return alias;
        }
        throw new ParamException(name, "unknown parameter '" + name + "' (Table 1 names: " + String.join(", ", NAMES)
                + ")");
    }

    private static int whole(String name, double v) {
        finite(name, v);
        if (v != Math.rint(v) || Math.abs(v) > Integer.MAX_VALUE) {
            throw new ParamException(name, name + " = " + num(v) + " must be a whole number");
        }
        return (int) v;
    }

    private static void whole(String name, int v, int min) {
        if (v < min) {
            throw new ParamException(name, name + " = " + v + " must be >= " + min
                    + (name.equals("q") ? " (R needs a slot to hold a note id)" : ""));
        }
    }

    private static void nonNegative(String name, double v) {
        finite(name, v);
        if (v < 0) {
            throw new ParamException(name, name + " = " + num(v) + " is negative; times and distances are >= 0");
        }
    }

    private static void finite(String name, double v) {
        if (!Double.isFinite(v)) {
            throw new ParamException(name, name + " = " + v + " is not a finite number");
        }
    }

    static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
