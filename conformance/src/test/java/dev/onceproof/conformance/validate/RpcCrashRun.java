package dev.onceproof.conformance.validate;

import dev.onceproof.conformance.crash.CrashExperiment;
import dev.onceproof.rpc.core.RetryPolicy;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A short SIGKILL run of the RPC crash experiment with step logs: the server JVM is killed twice
 * under one client's paced calls; returns every incarnation's log and the client's.
 */
public final class RpcCrashRun {

    private RpcCrashRun() {
    }

    public static List<Path> run(Path dir, long seed) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("steplogs"));
        CrashExperiment.Config config = new CrashExperiment.Config(2, seed, 1, 250, 400, 300, 100, 20_000, 20_000, 2,
                new RetryPolicy(50, 100), 300, 1_000, CrashExperiment.Sabotage.NONE);
        new CrashExperiment(config, dir, new PrintStream(OutputStream.nullOutputStream()))
                .logSteps(logs, 60).run();
        try (Stream<Path> files = Files.list(logs)) {
            return files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList();
        }
    }
}
