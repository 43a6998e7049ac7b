package dev.onceproof.bench.exactlyonce;

/**
 * One checkable statement of the paper, with the verdict on our numbers.
 *
 * @param id       short id, stable across runs
 * @param paper    where the paper says it (figure, line, equation)
 * @param claim    the statement in the paper's terms, with how we read it
 * @param status   PASS, FAIL, or NOT_RUN (the numbers it needs do not exist yet; {@code measured} says why)
 * @param measured the numbers behind the verdict
 */
public record Claim(String id, String paper, String claim, Status status, String measured) {

    public enum Status { PASS, FAIL, NOT_RUN }

    static Claim of(String id, String paper, String claim, boolean pass, String measured) {
        return new Claim(id, paper, claim, pass ? Status.PASS : Status.FAIL, measured);
    }

    static Claim notRun(String id, String paper, String claim, String why) {
        return new Claim(id, paper, claim, Status.NOT_RUN, why);
    }
}
