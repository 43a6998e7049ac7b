package dev.onceproof.bench.causal;

/**
 * One statement of the paper set against measured numbers.
 *
 * @param id       short id, stable across runs
 * @param paper    where the paper states it
 * @param claim    the statement in the paper's terms
 * @param status   PASS: reproduced within the stated interval; FAIL: not reproduced, and nothing
 *                 explains why (the run exits non-zero); GAP: not reproduced as printed, with the
 *                 measured gap and its reason in {@code measured} (a finding about the paper, kept
 *                 visible instead of hidden behind a wider tolerance)
 * @param measured the numbers the verdict rests on
 * @param reason   for a GAP, why the paper's statement is not reproduced as printed; empty otherwise
 */
record Check(String id, String paper, String claim, Status status, String measured, String reason) {

    Check(String id, String paper, String claim, Status status, String measured) {
        this(id, paper, claim, status, measured, "");
    }

    enum Status { PASS, FAIL, GAP }

    static Check of(String id, String paper, String claim, boolean pass, String measured) {
        return new Check(id, paper, claim, pass ? Status.PASS : Status.FAIL, measured);
    }
}
