package dev.onceproof.bench.claims;

import java.util.Objects;

/**
 * One statement of a paper with the verdict our numbers give it: the row of a {@code claims.json}
 * ({@link ClaimsFile}), which {@code ./onceproof verify} and the proof-map report read.
 *
 * @param id        short id, stable across runs (other files refer to it)
 * @param location  where the paper says it (figure, equation, line of the seed text)
 * @param statement the statement in the paper's terms, with how we read it
 * @param verdict   PASS, FAIL, GAP (not reproduced as printed, the gap explained and the explanation
 *                  itself checked), NOT_RUN (the numbers it needs do not exist; {@code measured} says why)
 * @param measured  the numbers the verdict rests on, intervals included
 * @param expected  what the paper (or our reading of it) says the number should be
 * @param basis     what the measurement is: {@link Basis}
 * @param canFail   false exactly for {@link Basis#IDENTITY} lines: they restate the closed form
 * @param reason    for a line whose measurement differs from the paper, why; empty otherwise
 */
public record PaperClaim(String id, String location, String statement, Verdict verdict, String measured,
        String expected, Basis basis, boolean canFail, String reason) {

    public enum Verdict { PASS, FAIL, GAP, NOT_RUN }

    /** Where the number comes from; the JSON spelling is {@link #json()}. */
    public enum Basis {
        /** the paper's closed form evaluated at the paper's parameters (a number that could have come out otherwise) */
        CLOSED_FORM("closed-form"),
        /** true of the closed form for every parameter value: a restatement, it cannot fail */
        IDENTITY("identity"),
        /** the real cores run with every delay at its expectation (the analysis' own simplifications) */
        MEAN_VALUE("mean-value"),
        /** the real cores run with random delays, a mean with its 95% interval */
        STOCHASTIC("stochastic"),
        /** a seeded simulation of the real cores that is not one of the two modes above */
        SIMULATION("simulation"),
        /** measured on the running system (time, bytes) */
        MEASUREMENT("measurement");

        private final String json;

        Basis(String json) {
            this.json = json;
        }

        public String json() {
            return json;
        }

        public static Basis ofJson(String s) {
            for (Basis b : values()) {
                if (b.json.equals(s)) {
                    return b;
                }
            }
            throw new IllegalArgumentException("basis \"" + s + "\" is not one of closed-form, identity, mean-value,"
                    + " stochastic, simulation, measurement");
        }
    }

    public PaperClaim {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(location, "location of " + id);
        Objects.requireNonNull(statement, "statement of " + id);
        Objects.requireNonNull(verdict, "verdict of " + id);
        Objects.requireNonNull(measured, "measured of " + id);
        Objects.requireNonNull(expected, "expected of " + id);
        Objects.requireNonNull(basis, "basis of " + id);
        reason = reason == null ? "" : reason;
        if (canFail == (basis == Basis.IDENTITY)) {
            throw new IllegalArgumentException("claim " + id + ": canFail is " + canFail + " with basis " + basis.json()
                    + "; it is false exactly for identity lines");
        }
    }

    /** A line that can fail. */
    public static PaperClaim of(String id, String location, String statement, Verdict verdict, String measured,
            String expected, Basis basis, String reason) {
        return new PaperClaim(id, location, statement, verdict, measured, expected, basis, basis != Basis.IDENTITY,
                reason);
    }
}
