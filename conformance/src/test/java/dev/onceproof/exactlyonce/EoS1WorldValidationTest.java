package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.EoS1Run;
import dev.onceproof.conformance.validate.StepLogFile;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.Validation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for Strategy 1: impl's {@link EoWorld} over S1Server and S1Client cores (syncs
 * as requests and replies carrying each server's prefix per stream, on a network that loses,
 * duplicates, reorders and delays within T_e, crashes rebuilt from the stores) logs a seeded
 * schedule, and TLC accepts it as a behaviour of ExactlyOnceS1Msg
 * (specs/exactlyonce/TraceExactlyOnceS1.tla). The controls: the same world over servers that merge
 * a prefix by overwriting it (the seam of MutS1MsgMergeOverwrite) is rejected at the merge that
 * moves a prefix back; a second processing inserted by hand and a SendNote removed by hand are
 * rejected where they go wrong.
 */
class EoS1WorldValidationTest {

    static final Path STORED = TestValidators.REPO.root().resolve("conformance/src/test/resources/validate/exactlyonce");

    @TempDir
    Path dir;

    @Test
    void seededSchedulesOfTheWorldAreBehavioursOfTheSpec() throws Exception {
        for (long seed : new long[] {1, 2}) {
            Path log = run(dir.resolve("s1-world-" + seed + ".jsonl"), seed, w -> w);
            Validation v = TestValidators.IN_JVM.validate(List.of(log));
            System.out.println("EoWorld, Strategy 1, seed " + seed + ": " + v.summary());
            assertThat(v.accepted()).as("seed %d\n%s\n%s", seed, v.report(), Files.readString(log)).isTrue();
            assertThat(Files.readString(log)).contains("\"action\":\"HandleSync\"", "\"action\":\"ReceiveSyncReply\"",
                    "\"verdict\":\"discarded\"");
        }
    }

    /** Verify's fresh Strategy 1 run (conformance's EoS1Run, the same steps over the cores directly). */
    @Test
    void verifysFreshRunIsABehaviourOfTheSpec() throws Exception {
        Path log = EoS1Run.run(dir, 1, 120);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("EoS1Run, seed 1: " + v.summary());
        assertThat(v.accepted()).as("%s\n%s", v.report(), Files.readString(log)).isTrue();
        assertThat(Files.readString(log)).contains("\"action\":\"HandleSync\"", "\"action\":\"ReceiveSyncReply\"",
                "\"action\":\"ReceiveAck\"");
    }

    /**
     * The overwriting merge takes a stale message's prefix as it comes, so a server's prefix moves
     * back; the spec merges by max, so the line's pre (the server's after the merge) is no state's.
     */
    @Test
    void serversMergingByOverwriteAreRejectedAtTheMergeThatMovesAPrefixBack() {
        // Seed 2: a stale sync message arrives after a newer one was merged (seed 1 has none).
        Path log = run(dir.resolve("overwrite.jsonl"), 2, EoWorld::withPrefixOverwrite);
        Validation v = TestValidators.IN_JVM.validate(List.of(log));
        System.out.println("Control, EoWorld over S1Servers merging by overwrite (seed 2):\n" + v.report());
        assertThat(v.accepted()).isFalse();
        List<ObjectNode> steps = StepLogFile.read(log).steps();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.text()).containsAnyOf("\"action\":\"HandleSync\"", "\"action\":\"ReceiveSyncReply\"");
            ObjectNode line = steps.get(t.index() - 1);
            // The server's prefix as its previous line showed it: the merge moved some stream back.
            ObjectNode before = null;
            for (ObjectNode s : steps.subList(0, t.index() - 1)) {
                if (s.has("pre") && s.get("server").equals(line.get("server"))) {
                    before = s;
                }
            }
            assertThat(before).as("an earlier line of server %s with its prefix", line.get("server")).isNotNull();
            ObjectNode earlier = (ObjectNode) before.get("pre");
            assertThat(line.get("pre").properties()).anySatisfy(e ->
                    assertThat(e.getValue().asLong()).isLessThan(earlier.get(e.getKey()).asLong()));
        });
    }

    @Test
    void aSecondDeliveryInsertedByHandIsRejectedThere() {
        HandEditedLogs.assertSecondProcessingRejectedThere(STORED.resolve("s1-world-seed4.jsonl"));
    }

    @Test
    void aSendNoteRemovedByHandIsRejectedWhereItIsMissed() {
        HandEditedLogs.Edit e = HandEditedLogs.withoutFirstReceivedSend(StepLogFile.read(STORED.resolve("s1-world-seed4.jsonl")));
        Validation v = e.validation();
        ObjectNode send = e.step();
        System.out.println("Control, the first received SendNote removed (" + send + "):\n" + v.report());
        assertThat(v.accepted()).isFalse();
        // The Deliver's next step: the client's receipt of that note, or the server's ack or timeout.
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            assertThat(t.index()).isGreaterThan(e.at());
            // The line as TLC saw it: the note as the spec's Id (EoS1TraceFamily), "A.1" as A and 1.
            String[] id = send.get("note").asText().split("\\.");
            assertThat(t.text()).contains("\"note\":{\"server\":\"" + id[0] + "\",\"seq\":" + id[1] + "}");
        });
    }

    /** EoWorldValidationTest's seeded schedule over a Strategy 1 world ({@code seam} may break its cores). */
    static Path run(Path file, long seed, UnaryOperator<EoWorld> seam) {
        return EoWorldValidationTest.runLogged(seam.apply(new EoWorld(Strategy.S1, 2, 1, 3, 2, 3)), file, seed);
    }
}
