package dev.onceproof.conformance.report;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * One piece of evidence for a paper statement (specs/&lt;family&gt;/statements.json).
 *
 * <p>Whether it can fail on its own is decided by its kind, not by its wording: a mutant TLC must
 * refute and an expected counterexample both fail the build when the safeguard they test stops
 * mattering; a passing model only shows something when a control makes the same property fail; a
 * test likewise only when it names the control (a broken core, a seam) it catches; a stored trace can,
 * since its replay stops where the Java core leaves the spec (the BrokenCore replay tests show it); a
 * claim unless it is an identity of the closed form it is checked against (its basis lives in the
 * bench's claims, see {@link Claims}). An invariant that restates a guard cannot fail while the guard is there, whatever
 * its kind (issue 20: RBounded, ReconnectDelayKept, HistoryTruthful, PurgeSafe).
 *
 * @param ref           a manifest model name (model, mutant, expected-counterexample), a manifest trace
 *                      entry or a file under traces/ (trace), a test class or Class#method by its
 *                      fully qualified name (test), a claim id of bench/results/&lt;family&gt;/ (claim)
 * @param property      the property the evidence is about (for a mutant or expected counterexample:
 *                      the one TLC must report, which must be the manifest's expect)
 * @param control       model or test evidence only: what makes the same property fail (a manifest model
 *                      whose expect is that property, or a test Class#method that catches a broken core)
 * @param restatesGuard true when the property only restates a guard of the spec or core
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Evidence(Kind kind, String ref, String property, String control, Boolean restatesGuard, String note) {

    public enum Kind {
        MODEL("model"), MUTANT("mutant"), EXPECTED_COUNTEREXAMPLE("expected-counterexample"), TRACE("trace"),
        TEST("test"), CLAIM("claim");

        private final String json;

        Kind(String json) {
            this.json = json;
        }

        @JsonValue
        public String json() {
            return json;
        }

        @JsonCreator
        static Kind of(String s) {
            return Arrays.stream(values()).filter(k -> k.json.equals(s)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown evidence kind \"" + s
                            + "\" (one of model, mutant, expected-counterexample, trace, test, claim)"));
        }

        /** Evidence that TLC runs from the manifest. */
        public boolean isManifestModel() {
            return this == MODEL || this == MUTANT || this == EXPECTED_COUNTEREXAMPLE;
        }
    }

    public boolean restates() {
        return Boolean.TRUE.equals(restatesGuard);
    }

    /**
     * Why this evidence cannot fail on its own, judged from the statements file alone; empty when it
     * can. A claim's answer needs its basis ({@link #whyCannotFail(String)}).
     */
    public Optional<String> whyCannotFail() {
        return whyCannotFail(null);
    }

    /** @param claimBasis the claim's basis from the bench results, null when unknown */
    public Optional<String> whyCannotFail(String claimBasis) {
        if (restates()) {
            return Optional.of("restates a guard");
        }
        return switch (kind) {
            case MUTANT, EXPECTED_COUNTEREXAMPLE, TRACE -> Optional.empty();
            case MODEL -> control == null ? Optional.of("passing model without a control") : Optional.empty();
            case TEST -> control == null ? Optional.of("test without a control") : Optional.empty();
            case CLAIM -> claimBasis == null ? Optional.of("claim whose basis is unknown")
                    : claimBasis.equals("identity") ? Optional.of("claim that is an identity") : Optional.empty();
        };
    }
}
