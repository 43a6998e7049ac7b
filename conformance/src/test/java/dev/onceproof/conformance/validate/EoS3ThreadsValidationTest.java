package dev.onceproof.conformance.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.exactlyonce.S3Seams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for Strategy 3 under real concurrency: {@link EoS3ThreadsRun} (two
 * ConcurrentS3Servers, producers, the periodic sync thread, handler and session threads and the
 * client thread, on the real clock) writes one log per server, each line under that server's lock,
 * and one for the client; TLC, one cursor per log, finds an interleaving that is a behaviour of
 * ExactlyOnceS3MsgRound. The control: the same run over cores without the replication round
 * (S3Seams) is rejected at a server's first offer of a note its round had not committed.
 */
class EoS3ThreadsValidationTest {

    @TempDir
    Path dir;

    @Test
    void aThreadedRealClockRunOfTwoServersIsABehaviourOfTheSpec() throws Exception {
        long seed = System.nanoTime() % 1000;
        List<Path> logs = EoS3ThreadsRun.run(dir, seed, 2, 200, c -> c);
        Validation v = EoS3TraceValidationTest.VALIDATOR.validate(logs);
        System.out.println("Strategy 3 with threads on the real clock, seed " + seed + ": " + v.summary() + "; lines by "
                + "action: " + byAction(logs));
        assertThat(v.accepted()).as("seed %d\n%s\n%s", seed, v.report(), contents(logs)).isTrue();
        assertThat(count(logs, "SendNote")).as("the run offered notes").isPositive();
        assertThat(count(logs, "HandleSync")).as("the sync thread ran rounds").isPositive();
    }

    /**
     * Without the acknowledged round a server offers a note as soon as it is in its K (at its
     * origin on creation, elsewhere on the replica), before its commit; the spec's session offers
     * only committed notes. TLC must stop at such a SendNote: the tried lines include the first
     * SendNote, in some server's log, of a note that server had not seen committed.
     */
    @Test
    void theSameRunOverCoresWithoutTheReplicationRoundIsRejectedAtAnEarlyOffer() throws Exception {
        List<Path> logs = EoS3ThreadsRun.run(dir, 1, 2, 200, S3Seams.withoutReplicationRound());
        Set<String> early = earlyOffers(logs);
        assertThat(early).as("the broken cores offered a note before its commit\n%s", contents(logs)).isNotEmpty();
        Validation v = EoS3TraceValidationTest.VALIDATOR.validate(logs);
        System.out.println("Control, threaded run over cores without the replication round:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried())
                .anySatisfy(t -> assertThat(early).contains(t.process() + ":" + t.index()));
    }

    /** process:index (1-based) of each server's first SendNote of a note before that server saw it committed. */
    static Set<String> earlyOffers(List<Path> logs) {
        Set<String> out = new HashSet<>();
        for (Path f : logs) {
            StepLogFile log = StepLogFile.read(f);
            Set<String> committed = new HashSet<>();
            for (int i = 0; i < log.steps().size(); i++) {
                ObjectNode s = log.steps().get(i);
                String action = s.path("action").asText();
                String note = s.path("note").asText();
                if ((action.equals("ReceiveCommit") || action.equals("ReceiveReplicaAck"))
                        && s.path("outcome").asText().equals("committed")) {
                    committed.add(note);
                } else if (action.equals("SendNote") && !committed.contains(note)) {
                    out.add(log.process() + ":" + (i + 1));
                    break;
                }
            }
        }
        return out;
    }

    private static java.util.Map<String, Long> byAction(List<Path> logs) {
        return logs.stream().flatMap(f -> StepLogFile.read(f).steps().stream())
                .collect(java.util.stream.Collectors.groupingBy(s -> s.path("action").asText(), java.util.TreeMap::new,
                        java.util.stream.Collectors.counting()));
    }

    private static long count(List<Path> logs, String action) {
        return logs.stream().flatMap(f -> StepLogFile.read(f).steps().stream())
                .filter(s -> s.path("action").asText().equals(action)).count();
    }

    private static String contents(List<Path> logs) throws java.io.IOException {
        StringBuilder sb = new StringBuilder();
        for (Path f : logs) {
            sb.append(f.getFileName()).append(":\n").append(Files.readString(f));
        }
        return sb.toString();
    }
}
