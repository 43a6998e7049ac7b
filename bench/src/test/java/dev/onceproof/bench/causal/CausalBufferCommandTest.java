package dev.onceproof.bench.causal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The causal-buffer harness runs the workload it names, and it sees a core that is not flat. No
 * assertion reads a time: the work per datagram (the guard's evaluations, counted through the
 * node's seam) is deterministic.
 */
class CausalBufferCommandTest {

    private static final int[] SIZES = {10, 2000};

    @Test
    void theShippedCoreDoesTheSameWorkPerDatagramWhateverIsBuffered() {
        List<CausalBufferCommand.Row> rows = CausalBufferCommand.run(SIZES, List.of(BufferLoop.Delivery.INDEXED),
                200, 2, 1);

        assertThat(rows).extracting(CausalBufferCommand.Row::buffered).containsExactly(10, 2000);
        // 1 untimed + 1 warm-up + 2 timed batches of 200, each datagram delivered once (the loop checks it).
        assertThat(rows).allSatisfy(r -> assertThat(r.datagrams()).isEqualTo(800));
        // One guard evaluation per datagram: the datagram's own event, placed ready on arrival.
        assertThat(rows).allSatisfy(r -> assertThat(r.guardEvaluations()).isEqualTo(1.0));
        assertThat(rows).allSatisfy(r -> assertThat(r.medianMicros()).isPositive());
    }

    /** Control: the old delivery (the node's deliverAllByRescan seam) tests every buffered event per datagram. */
    @Test
    void aCoreThatRescansItsBufferIsSeenGrowingWithIt() {
        List<CausalBufferCommand.Row> rows = CausalBufferCommand.run(SIZES, List.of(BufferLoop.Delivery.RESCAN),
                50, 1, 0);

        // The datagram's own placement, then a pass over B + 1 events that delivers it and one over B that does not.
        assertThat(rows).extracting(CausalBufferCommand.Row::guardEvaluations).containsExactly(22.0, 4002.0);
        assertThat(CausalBufferCommand.verdict(rows)).contains("guard evaluations per datagram 22.0 to 4002.0");
    }

    @Test
    void theVerdictIsTheSpanOfTheMedians() {
        CausalBufferCommand.Row flat = row(10, 1.0);
        assertThat(CausalBufferCommand.verdict(List.of(flat, row(10000, 1.9)))).startsWith("PASS: median µs per"
                + " datagram spans 1.90x from 10 to 10000 buffered");
        assertThat(CausalBufferCommand.verdict(List.of(flat, row(10000, 2.1)))).startsWith("FAIL: median µs per"
                + " datagram spans 2.10x");
    }

    @Test
    void theCommandPrintsAVerdictPerDeliveryAndWritesItsJson(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        int code;
        Path json = dir.resolve("buffer.json");
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            code = new CommandLine(new CausalBufferCommand()).execute("--sizes", "10,500", "--batch", "50",
                    "--rounds", "2", "--warmup", "0", "--out", json.toString());
        } finally {
            System.setOut(old);
        }
        String out = buf.toString(StandardCharsets.UTF_8);

        assertThat(code).isZero();
        assertThat(out).contains("INDEXED: ").contains("RESCAN: ").contains("load average before");
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertThat(j.get("rows")).hasSize(4);
        assertThat(j.get("command").asText()).startsWith("./onceproof bench causal-buffer --sizes 10,500");
        assertThat(j.get("verdicts").get("RESCAN").asText()).contains("guard evaluations per datagram 22.0 to 1002.0");
    }

    private static CausalBufferCommand.Row row(int b, double micros) {
        return new CausalBufferCommand.Row(BufferLoop.Delivery.INDEXED, b, micros, micros, micros, 1e6 / micros, 1, 1);
    }
}
