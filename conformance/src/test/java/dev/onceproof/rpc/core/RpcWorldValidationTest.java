package dev.onceproof.rpc.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DESIGN.md link 5 for RPC's jqwik schedule world (impl's RpcSimulationProperties.World: the
 * sequential cores over a network that loses, duplicates and reorders encoded datagrams, skewed
 * clients, a server that crashes and recovers): the world's run, exactly as the property runs it,
 * writes the step logs of the server and its three clients, and TLC checks they are a behaviour of
 * RPC.tla (specs/rpc/TraceRpc.tla, one cursor per process).
 */
class RpcWorldValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    /** The world's first 250 steps (the property takes 600): about 50 lines over four processes, whose interleavings TLC explores. */
    static final int STEPS = 250;

    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void theScheduleWorldsLogsAreABehaviourOfTheSpec(long seed) {
        RpcSimulationProperties.World w = new RpcSimulationProperties.World(seed, true);
        List<Path> files = logRun(w, dir);
        assertThat(w.violations).isEmpty();
        Validation v = VALIDATOR.validate(files);
        System.out.println("RPC schedule world, seed " + seed + ": " + v.summary());
        assertThat(v.accepted()).as("seed %d\n%s", seed, v.report()).isTrue();
        assertThat(v.lines()).isGreaterThan(40);
    }

    /**
     * The control: the property's broken core (it executes a call again while REPLYING, instead of
     * retransmitting the stored reply: Fig. 3-1) is rejected at the first server line where its log
     * leaves the real core's on the same seed.
     */
    @org.junit.jupiter.api.Test
    void theWorldOverACoreThatReExecutesIsRejectedWhereItLeavesTheRealCore() throws Exception {
        List<String> real = List.of();
        List<String> broken = List.of();
        List<Path> files = List.of();
        for (long seed = 1; seed <= 20 && real.equals(broken); seed++) {
            Path a = java.nio.file.Files.createDirectories(dir.resolve("real-" + seed));
            Path b = java.nio.file.Files.createDirectories(dir.resolve("broken-" + seed));
            real = java.nio.file.Files.readAllLines(logRun(new RpcSimulationProperties.World(seed, true), a).get(0));
            files = logRun(new RpcSimulationProperties.World(seed, true, true), b);
            broken = java.nio.file.Files.readAllLines(files.get(0));
        }
        assertThat(broken).as("a seed up to 20 where the broken core's server log differs").isNotEqualTo(real);
        int differs = 0;
        while (differs < Math.min(real.size(), broken.size()) && real.get(differs).equals(broken.get(differs))) {
            differs++;
        }
        Validation v = VALIDATOR.validate(files);
        System.out.println("Control, the schedule world over a core that re-executes while REPLYING:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        int fileLine = differs + 1;
        assertThat(v.rejection().tried()).anyMatch(t -> t.origin().endsWith("server.jsonl:" + fileLine));
    }

    /** Runs the world with its step logs on; returns them, the server's first. */
    static List<Path> logRun(RpcSimulationProperties.World w, Path dir) {
        List<Path> files = new ArrayList<>();
        List<StepLog> logs = new ArrayList<>();
        try {
            Map<String, Long> skew = new LinkedHashMap<>();
            w.skew.forEach((c, s) -> skew.put(c.value(), s));
            Path server = dir.resolve("server.jsonl");
            files.add(server);
            StepLog serverLog = StepLog.open(server, new StepLog.Header("RPC", "resilient", "server")
                    .strings("Classes", List.of(ScmpConfig.DEFAULT_CLASS))
                    .map("Rho", Map.of(ScmpConfig.DEFAULT_CLASS, RpcSimulationProperties.RHO))
                    .constant("Kappa", RpcSimulationProperties.KAPPA).constant("Beta", 200).constant("Epsilon", 5)
                    .constant("incarnation", 0).map("Skew", skew));
            logs.add(serverLog);
            Map<ConnId, StepLog> clientLogs = new LinkedHashMap<>();
            for (ConnId c : RpcSimulationProperties.CONNS) {
                Path f = dir.resolve("client-" + c.value() + ".jsonl");
                files.add(f);
                StepLog l = StepLog.open(f, new StepLog.Header("RPC", "resilient", "client-" + c.value())
                        .constant("MaxTries", w.clients.get(c).policy().maxTries()));
                logs.add(l);
                clientLogs.put(c, l);
            }
            RpcSimulationProperties.run(w.logSteps(serverLog, clientLogs), STEPS);
        } finally {
            logs.forEach(StepLog::close);
        }
        return files;
    }
}
