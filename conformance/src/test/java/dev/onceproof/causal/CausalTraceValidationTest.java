package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CausalTraceValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"FIFO, 2, true"})
    void theScheduleWorldsLogsAreABehaviourOfCausal(Mode mode, long seed, boolean mayCrash) {
        List<Path> logs = CausalWorldRun.run(dir, mode, seed, 60, mayCrash);
        Validation v = VALIDATOR.validate(logs);
        assertThat(v.accepted()).as("%s seed %d\n%s", mode, seed, v.report()).isTrue();
    }
}
