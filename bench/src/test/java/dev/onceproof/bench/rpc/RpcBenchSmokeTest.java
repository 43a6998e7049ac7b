package dev.onceproof.bench.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.runtime.ReplyAcks;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The benchmark's machinery on a tiny run: every system answers calls on loopback, every round
 * records a sample per system and experiment, and the report names the targets. Checks no speed.
 */
class RpcBenchSmokeTest {

    @Test
    @Timeout(60)
    void everySystemAnswersAndEveryRoundIsRecorded() throws Exception {
        RetryPolicy policy = new RetryPolicy(200, 25);
        try (ScmpRpcSystem scmp = new ScmpRpcSystem(1, policy, ReplyAcks.OFF);
             UdpBaseline udp = new UdpBaseline(200, 25);
             TcpBaseline tcp = new TcpBaseline(5_000)) {
            for (RpcSystem s : List.of(scmp, udp, tcp)) {
                try (RpcSystem.Client c = s.newClient()) {
                    assertThat(c.call(new byte[] {1, 2, 3})).as(s.name()).isEmpty(); // the null call
                }
            }
            ByteArrayOutputStream progress = new ByteArrayOutputStream();
            RpcBench.Results results = new RpcBench(new RpcBench.Config(20, 20, 2, 1, 0),
                    new PrintStream(progress, true, StandardCharsets.UTF_8)).run(List.of(scmp, udp, tcp));
            assertThat(results.millis()).containsOnlyKeys("SCMP-RPC", "UDP", "TCP");
            for (Map<String, List<Double>> byExperiment : results.millis().values()) {
                assertThat(byExperiment.get(RpcBench.SEQUENTIAL)).hasSize(2).allMatch(ms -> ms > 0);
                assertThat(byExperiment.get(RpcBench.MANY_CLIENTS)).hasSize(2).allMatch(ms -> ms > 0);
            }
            assertThat(progress.toString(StandardCharsets.UTF_8)).contains("warm-up 1:", "round 2:");

            RpcBenchReport report = new RpcBenchReport(results, List.of(
                    new RpcBenchReport.Target(RpcBench.MANY_CLIENTS, "TCP", "SCMP-RPC", ">=", 3.0)));
            ByteArrayOutputStream table = new ByteArrayOutputStream();
            report.print(new PrintStream(table, true, StandardCharsets.UTF_8));
            assertThat(table.toString(StandardCharsets.UTF_8)).contains("Figure 3-2", "Figure 3-3", "TCP / SCMP-RPC");
            assertThat(report.json()).containsKeys("elapsedMillis", "processCpuMillis", "ratios");
            // Every call reached the SCMP-RPC server and ran once: 1 + 2 rounds x (20 + 20) + warm-up.
            assertThat(scmp.serverCounters()).contains("executed=" + (1 + 3 * 40));
        }
    }

    @Test
    void aOneCpuRunWritesItsOwnResultFileByDefault() {
        assertThat(RpcBenchCommand.defaultOut(1)).hasToString("bench/results/rpc/rpc-figures-3-2-3-3-one-cpu.json");
        assertThat(RpcBenchCommand.defaultOut(2)).hasToString("bench/results/rpc/rpc-figures-3-2-3-3.json");
    }

    @Test
    void anExtraSystemRepeatingTheMeasuredOneIsRefusedBeforeAnythingRuns(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path out = dir.resolve("r.json");
        int exit = new picocli.CommandLine(new RpcBenchCommand()).execute("--also-reply-acks", "OFF",
                "--out", out.toString());
        assertThat(exit).isEqualTo(2);
        assertThat(out).doesNotExist();
    }
}
