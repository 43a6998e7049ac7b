package dev.onceproof.conformance.lincheck.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.onceproof.exactlyonce.S3Variant;
import java.util.Arrays;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * The negative control: the same server class with App. A.4's HandleClient as printed (the
 * {@link S3Variant#PRINTED} seam: {@code U = K - D} snapshotted at session start, never re-checked
 * while sync rounds purge). Lincheck must report it, as a note processed twice or as results no
 * sequential order of the corrected core explains: race R3 of the reading notes.
 */
public class PrintedSnapshotLincheckTest extends S3LincheckBase {

    public PrintedSnapshotLincheckTest() {
        super(S3Variant.PRINTED, false);
    }

    @Test
    void printedSnapshotRaceIsCaughtByModelChecking() {
        assertCaught(() -> LinChecker.check(PrintedSnapshotLincheckTest.class,
                S3LincheckOptions.modelChecking().minimizeFailedScenario(false)));
    }

    @Test
    void printedSnapshotRaceIsCaughtByStress() {
        assertCaught(() -> LinChecker.check(PrintedSnapshotLincheckTest.class,
                S3LincheckOptions.stress().minimizeFailedScenario(false)));
    }

    private static void assertCaught(org.junit.jupiter.api.function.Executable check) {
        LincheckAssertionError error = assertThrows(LincheckAssertionError.class, check);
        assertThat(error.getMessage()).containsAnyOf("processed twice (NoDuplicateDelivery)", "Invalid execution results");
        String[] lines = error.getMessage().split("\n");
        System.out.println("PrintedSnapshotLincheckTest: race R3 caught as expected:\n"
                + String.join("\n", Arrays.copyOf(lines, Math.min(lines.length, 30))));
    }
}
