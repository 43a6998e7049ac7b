package dev.onceproof.conformance.lincheck;

import java.util.Arrays;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.jetbrains.kotlinx.lincheck.Options;

/** Runs Lincheck on a class and says whether, and how, it failed. */
final class LincheckRun {

    /** What a failure must say to count as the reordering caught, not some other breakage. */
    private static final String[] CAUGHT = {"accepted twice (NoDuplicateAccepted)", "executed twice",
        "(AcceptedBelowStable)", "RpcServerState invariant", "Invalid execution results"};

    private LincheckRun() {
    }

    /** Null when Lincheck passed; else the start of its report (the reordering was seen). */
    static String failure(Class<?> testClass, Options<?, ?> options) {
        try {
            LinChecker.check(testClass, options);
            return null;
        } catch (LincheckAssertionError e) {
            String message = String.valueOf(e.getMessage());
            if (Arrays.stream(CAUGHT).noneMatch(message::contains)) {
                throw new AssertionError("Lincheck failed on " + testClass.getSimpleName()
                        + " for a reason that is not a broken invariant or a non-linearizable history", e);
            }
            String[] lines = message.split("\n");
            return String.join("\n", Arrays.copyOf(lines, Math.min(lines.length, 30)));
        }
    }
}
