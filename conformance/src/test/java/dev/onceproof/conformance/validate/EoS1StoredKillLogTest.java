package dev.onceproof.conformance.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The stored Strategy 1 kill run (validate/exactlyonce/s1-sigkill-seed18/: the driver's log and
 * three client incarnations, each kill cut a receipt the restart's R shows; its README says
 * how it was made). The stored-logs test (EoS3TraceValidationTest) and {@code ./onceproof verify}
 * accept it; here its control: the client's first accepted receipt of its second incarnation
 * logged twice is rejected at the copy (R already holds the note, the spec's verdict is a
 * duplicate), while TLC may interleave the driver's lines around it as it likes (one cursor each).
 */
class EoS1StoredKillLogTest {

    static final Path STORED = TestValidators.REPO.root()
            .resolve("conformance/src/test/resources/validate/exactlyonce/s1-sigkill-seed18");

    @Test
    void aSecondProcessingInsertedIntoAnIncarnationIsRejectedAtIt() {
        List<StepLogFile> logs = new ArrayList<>();
        int at = -1;
        for (Path f : files()) {
            StepLogFile log = StepLogFile.read(f);
            if (f.getFileName().toString().equals("client-1.jsonl")) {
                List<ObjectNode> steps = new ArrayList<>(log.steps());
                at = ScmpTraceValidationTest.indexOf(steps, "ReceiveNote", "accepted");
                steps.add(at + 1, steps.get(at).deepCopy());
                log = log.withSteps(steps);
            }
            logs.add(log);
        }
        assertThat(at).as("client-1.jsonl has an accepted receipt").isNotNegative();
        Validation v = TestValidators.IN_JVM.validateLogs(logs);
        System.out.println("Control, s1-sigkill-seed18 with client-1's first accepted receipt logged twice:\n"
                + v.report());
        assertThat(v.accepted()).isFalse();
        String origin = "client-1.jsonl:" + (at + 3);
        assertThat(v.rejection().tried()).anySatisfy(t -> {
            assertThat(t.origin()).endsWith(origin);
            assertThat(t.text()).contains("\"action\":\"ReceiveNote\"", "\"verdict\":\"accepted\"");
        });
    }

    private static List<Path> files() {
        try (Stream<Path> list = Files.list(STORED)) {
            return list.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
