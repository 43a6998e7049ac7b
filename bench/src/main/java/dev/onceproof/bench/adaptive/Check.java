package dev.onceproof.bench.adaptive;

/**
 * One claim of the paper, checked against measured numbers.
 *
 * @param id       short id, stable across runs
 * @param paper    where the paper states it
 * @param claim    the claim in the paper's terms
 * @param pass     whether the measurement agrees
 * @param measured the numbers the verdict rests on
 */
public record Check(String id, String paper, String claim, boolean pass, String measured) {
}
