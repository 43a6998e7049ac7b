package dev.onceproof.bench.exactlyonce;

import dev.onceproof.bench.claims.PaperClaim;
import dev.onceproof.bench.claims.PaperClaim.Basis;

/**
 * One checkable statement of the paper, with the verdict on our numbers.
 *
 * @param id       short id, stable across runs
 * @param paper    where the paper says it (figure, line, equation)
 * @param claim    the statement in the paper's terms, with how we read it
 * @param status   PASS, FAIL, GAP (differs from App. B, and the stated reason is itself confirmed by a
 *                 number) or NOT_RUN (the numbers it needs do not exist yet; {@code measured} says why)
 * @param measured the numbers behind the verdict
 * @param expected what the paper (or our reading of it) says
 * @param basis    closed form, identity of the closed form, mean-value or stochastic run of the cores
 * @param reason   why the measurement differs from App. B, where it does
 */
public record Claim(String id, String paper, String claim, Status status, String measured, String expected,
        Basis basis, String reason) {

    public enum Status { PASS, FAIL, GAP, NOT_RUN }

    /** A line on the closed forms; {@link #basis} and {@link #expected} refine it. */
    static Claim of(String id, String paper, String claim, boolean pass, String measured) {
        return new Claim(id, paper, claim, pass ? Status.PASS : Status.FAIL, measured, "", Basis.CLOSED_FORM, "");
    }

    static Claim notRun(String id, String paper, String claim, String why) {
        return new Claim(id, paper, claim, Status.NOT_RUN, why, "", Basis.CLOSED_FORM, "");
    }

    Claim basis(Basis b) {
        return new Claim(id, paper, claim, status, measured, expected, b, reason);
    }

    /**
     * An identity of the closed form: true for every parameter value, so it cannot fail; {@code why}
     * (the algebra that makes it one) goes to {@link #expected}.
     */
    Claim identity(String why) {
        return new Claim(id, paper, claim, status, measured, why, Basis.IDENTITY, reason);
    }

    Claim expected(String e) {
        return new Claim(id, paper, claim, status, measured, e, basis, reason);
    }

    Claim reason(String r) {
        return new Claim(id, paper, claim, status, measured, expected, basis, r);
    }

    PaperClaim toPaperClaim() {
        return PaperClaim.of(id, paper, claim, PaperClaim.Verdict.valueOf(status.name()), measured, expected, basis,
                reason);
    }
}
