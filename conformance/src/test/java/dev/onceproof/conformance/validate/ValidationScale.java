package dev.onceproof.conformance.validate;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpFilterRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How trace validation scales with the log's length (a harness, not a test: run it by hand, it
 * takes minutes): SCMP logs of the real filter (resilient, seed 7) of growing length, and RPC UDP
 * runs with more calls, Strategy 3's seeded world with more steps and notes ({@code eo=N}), each
 * validated once; prints lines, distinct states, TLC's wall time and
 * lines per second. {@code java -cp ... dev.onceproof.conformance.validate.ValidationScale}
 */
public final class ValidationScale {

    public static void main(String[] args) throws Exception {
        TraceValidator validator = new TraceValidator(Repo.locate());
        Path dir = Files.createTempDirectory("validation-scale");
        System.out.println("family  run                 lines  distinct states  TLC wall s  lines/s");
        for (String arg : args) {
            String[] kv = arg.split("=");
            int n = Integer.parseInt(kv[1]);
            List<Path> logs;
            if (kv[0].equals("scmp")) {
                logs = List.of(ScmpFilterRun.run(dir.resolve("scmp-" + n + ".jsonl"), RecoveryScheme.RESILIENT, 7, n,
                        "NONE"));
            } else if (kv[0].equals("eo")) {
                // Strategy 3's seeded world: n random steps, a note per 30 of them (at least 4), seed 7.
                Path d = Files.createDirectories(dir.resolve("eo-" + n));
                logs = List.of(EoS3Run.run(d, 7, n, Math.max(4, n / 30), c -> c));
            } else {
                Path d = Files.createDirectories(dir.resolve("rpc-" + n));
                logs = RpcUdpRun.run(d, n);
            }
            Validation v = validator.validate(logs);
            double s = v.wallTime().toMillis() / 1000.0;
            System.out.printf("%-7s %-18s %6d %16d %11.1f %8.1f  %s%n", kv[0], kv[0] + " n=" + n, v.lines(), v.states(),
                    s, v.lines() / s, v.accepted() ? "accepted" : "REJECTED");
        }
    }
}
