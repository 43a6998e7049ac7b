package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.S3Variant;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.junit.jupiter.api.Test;

/**
 * Link 3 of the chain of trust (DESIGN.md) for Strategy 3: {@link
 * dev.onceproof.exactlyonce.ConcurrentS3Server}, shared by a client session and sync rounds, is
 * linearizable with respect to the sequential core ({@link SequentialS3}), and no explored
 * interleaving makes the client process a note twice (NoDuplicateDelivery). Model checking explores
 * interleavings at the lock and field accesses; stress mode runs the same scenarios on real threads.
 */
public class ConcurrentS3ServerLincheckTest extends S3LincheckBase {

    public ConcurrentS3ServerLincheckTest() {
        super(S3Variant.CORRECTED, false);
    }

    @Test
    void modelCheckingLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentS3ServerLincheckTest.class, S3LincheckOptions.modelChecking());
    }

    @Test
    void stressLinearizableAndNoDuplicate() {
        LinChecker.check(ConcurrentS3ServerLincheckTest.class, S3LincheckOptions.stress());
    }
}
