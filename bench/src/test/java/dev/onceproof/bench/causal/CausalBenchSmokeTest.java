package dev.onceproof.bench.causal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.Mode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ./onceproof bench causal} on a tiny run (a few seconds): every experiment runs on the real
 * core, every check is printed, the files are written; and a check can fail: a core whose FIFO
 * guard is removed fails the Eq. 7 line.
 */
class CausalBenchSmokeTest {

    @Test
    void aShortRunPrintsEveryCheckWritesItsFilesAndNothingFails(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        int code;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            code = new CommandLine(new CausalBenchCommand()).execute("--length", "0.03", "--seed", "3",
                    "--out", dir.toString());
        } finally {
            System.setOut(old);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out).isZero();
        assertThat(out).contains("PASS  eq6-worked-example", "eq7-fifo", "eq8-causal", "eq11-fig1", "eq12-max",
                "eq13-rto", "fp-whole-group", "cost-control-vs-ack-each", "PASS  rer-heartbeat-delivers-once")
                .doesNotContain("FAIL ");
        JsonNode json = new ObjectMapper().readTree(dir.resolve("results.json").toFile());
        assertThat(json.get("checks")).hasSize(18);
        // claims.json: one row per check, each id its own (verify and the report key on it)
        JsonNode claims = new ObjectMapper().readTree(dir.resolve("claims.json").toFile());
        assertThat(claims.get("schema").asText()).isEqualTo("onceproof-claims/1");
        java.util.List<String> ids = new java.util.ArrayList<>();
        claims.get("claims").forEach(c -> ids.add(c.get("id").asText()));
        assertThat(ids).hasSize(18).doesNotHaveDuplicates().contains("eq7-fifo", "eq7-fifo-worked-example",
                "eq7-fifo-mixture", "eq8-causal", "eq8-causal-worked-example");
        assertThat(json.get("networkCost")).hasSize(24);
        for (String png : new String[] {"false-positives-vs-w", "delivery-cdf-small", "delivery-cdf-worked-example",
            "delivery-cdf-mixture", "network-cost-vs-rate", "fig2-false-positive-surface"}) {
            assertThat(dir.resolve(png + ".png")).isNotEmptyFile();
        }
        assertThat(Files.readString(dir.resolve("summary.txt"))).contains("PASS  eq6-worked-example");
    }

    @Test
    void badInputNamesTheParameterAndTheRuleAndWritesNothing(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        PrintStream oldErr = System.err;
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        int code;
        try {
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            code = new CommandLine(new CausalBenchCommand()).execute("--length", "0", "--out", dir.toString());
        } finally {
            System.setErr(oldErr);
        }
        assertThat(code).isEqualTo(2);
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).contains("length = 0.0 must be in (0, 10]");
        assertThat(dir.resolve("results.json")).doesNotExist();
        CommandLine cl = new CommandLine(new CausalBenchCommand()).setErr(new PrintWriter(err));
        assertThat(cl.execute("--rate", "5")).isNotZero();
        assertThat(err.toString()).contains("Unknown option", "'--rate'");
    }

    @Test
    void aCoreWithoutTheFifoGuardFailsTheEq7Check() {
        var cfg = new Deliverability.Config("tiny", 4, new LatencyModel.Exponential(1), 4, 400, 4, 0.99, 8, 0.2, 5);
        Deliverability.Result real = Deliverability.run(cfg);
        assertThat(EvalChecks.curve("eq7-fifo", "Eq. 7", "", real, Mode.FIFO, real.eq7()).status())
                .isEqualTo(Check.Status.PASS);
        Deliverability.Result broken = Deliverability.run(cfg, (config, ticker) -> new CausalNode(config, ticker) {
            @Override
            protected boolean deliverable(Event e) {
                return true; // delivers on receipt: no FIFO guard
            }
        });
        assertThat(EvalChecks.curve("eq7-fifo", "Eq. 7", "", broken, Mode.FIFO, broken.eq7()).status())
                .isEqualTo(Check.Status.FAIL);
    }
}
