package dev.onceproof.conformance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code verify --budget}: a deep model TLC stops at its budget is INCOMPLETE, printed with how far it
 * got and the actions never taken, and fails the run (JSON status incomplete, a JUnit error); never a
 * pass. On the runner's Slow.tla (201 x 201 states, several seconds for one worker), budget 1 s.
 */
class VerifyBudgetTest {

    @TempDir
    Path dir;

    @Test
    void aModelStoppedAtItsBudgetIsIncompleteNeverAPass() throws Exception {
        Path specs = dir.resolve("specs/slow");
        Files.createDirectories(specs);
        for (String f : new String[] {"Slow.tla", "Slow.cfg"}) {
            try (var in = getClass().getResourceAsStream("/tla/" + f)) {
                Files.copy(in, specs.resolve(f));
            }
        }
        Files.writeString(dir.resolve("specs/manifest.json"), """
                { "models": [ { "name": "slow-grid", "family": "slow", "module": "slow/Slow.tla", "cfg": "slow/Slow.cfg",
                    "mode": "deep", "expect": "pass", "distinctStates": 40401, "depth": 401, "why": "a slow grid" } ],
                  "traces": [] }
                """);
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        int exit = cl.execute("verify", "--repo", dir.toString(), "--mode", "deep", "--budget", "1", "--models-only",
                "--junit", dir.resolve("junit").toString());
        assertThat(exit).as(out.toString()).isEqualTo(1);
        assertThat(out.toString()).contains("slow-grid: incomplete").contains("INCOMPLETE")
                .contains("slow-grid: INCOMPLETE (not a pass): TLC stopped at its --budget after ")
                .containsPattern("actions never taken: (IncX, )?(IncY, )?Never\\b")
                .contains("Models: FAILED: 0/1 as the manifest says, 1 INCOMPLETE at the --budget");
        JsonNode m = new ObjectMapper().readTree(dir.resolve("target/onceproof/last-results.json").toFile())
                .get("models").get(0);
        assertThat(m.get("status").asText()).isEqualTo("incomplete");
        assertThat(m.get("distinctStates").asLong()).isBetween(1L, 40400L);
        // Never is never enabled; IncX and IncY are taken unless the machine is so loaded that the
        // budget ends before TLC's first step (seen at load 26: one state, all three untaken).
        List<String> untaken = new ArrayList<>();
        m.get("untakenActions").forEach(a -> untaken.add(a.asText()));
        assertThat(untaken).contains("Never").isSubsetOf("IncX", "IncY", "Never");
        assertThat(Files.readString(dir.resolve("junit/TEST-onceproof.xml")))
                .contains("<error message=\"incomplete: INCOMPLETE (not a pass)").contains("type=\"incomplete\"");
        // A deep model without recorded seconds under a budget checkpoints, so the next run goes on.
        assertThat(dir.resolve("target/onceproof/checkpoints")).isDirectory();
    }
}
