package dev.onceproof.conformance.validate;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tlc.TlcJvm;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.time.Duration;

/**
 * The validator the tests share: TLC in the test JVM (TlcRunner.Mode.AUTO with every log a small
 * model), as ./onceproof verify runs its validations, so a test's thirty-odd short logs do not each
 * pay a JVM start; the check itself is the one ./onceproof validate runs.
 */
public final class TestValidators {

    public static final Repo REPO = Repo.locate();
    public static final TraceValidator IN_JVM =
            new TraceValidator(REPO.specs(), new TlcRunner(TlcJvm.standard(), TlcRunner.Mode.AUTO), Duration.ofMinutes(10))
                    .quick();

    private TestValidators() {
    }
}
