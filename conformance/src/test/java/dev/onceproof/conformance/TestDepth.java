package dev.onceproof.conformance;

/**
 * The two strengths of the slow tests: {@code ci} (what {@code mvn -B -ntp verify} runs, sized for
 * the 10-minute budget of issue 18) and {@code deep} (the full counts they had before, run by
 * {@code mvn -B -ntp verify -Pdeep}, which sets the system property {@code onceproof.deep=true}).
 * Every test that takes its size from here keeps a control that its defect is still caught at the
 * ci size; the README's testing section lists them.
 */
public final class TestDepth {

    private TestDepth() {
    }

    /** True under {@code -Pdeep} (or {@code -Donceproof.deep=true}). */
    public static boolean deep() {
        return Boolean.getBoolean("onceproof.deep");
    }

    /** {@code deep} under {@code -Pdeep}, else {@code ci}. */
    public static int pick(int ci, int deep) {
        return deep() ? deep : ci;
    }
}
