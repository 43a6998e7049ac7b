package dev.onceproof.conformance.crash;

import dev.onceproof.rpc.core.RetryPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the crash test by hand and prints its table: {@code java -cp
 * "conformance/target/classes:conformance/target/lib/*" dev.onceproof.conformance.crash.CrashCommand}.
 * Exit status 0 when safe, 1 when a violation was found.
 */
@Command(name = "crash", mixinStandardHelpOptions = true,
        description = "SIGKILL the RPC server repeatedly under load and check at-most-once from its journal.")
public final class CrashCommand implements Callable<Integer> {

    @Option(names = "--crashes", defaultValue = "20", description = "SIGKILLs (default ${DEFAULT-VALUE}).")
    int crashes;

    @Option(names = "--seed", defaultValue = "1", description = "Seed for the kill moments (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--clients", defaultValue = "4", description = "Client threads (default ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--min-up", defaultValue = "200", description = "Least ms between restart and kill (default ${DEFAULT-VALUE}).")
    long minUp;

    @Option(names = "--max-up", defaultValue = "1000", description = "Most ms between restart and kill (default ${DEFAULT-VALUE}).")
    long maxUp;

    @Option(names = "--beta", defaultValue = "150", description = "Server beta, ms (default ${DEFAULT-VALUE}).")
    long beta;

    @Option(names = "--dir", description = "Directory for the storage, journal and server log (default: a new temp dir).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        CrashExperiment.Config std = CrashExperiment.Config.standard(seed);
        CrashExperiment.Config config = new CrashExperiment.Config(crashes, seed, clients, minUp, maxUp, beta,
                Math.max(1, Math.min(std.latestPeriod(), beta / 3)), std.rho(), std.kappa(), std.threads(),
                new RetryPolicy(std.clientPolicy().intervalMillis(), std.clientPolicy().maxTries()),
                std.calmMillis(), std.maxCallsPerClient(), CrashExperiment.Sabotage.NONE);
        Path where = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("onceproof-crash-");
        CrashReport report = new CrashExperiment(config, where, System.out).run();
        report.print(System.out);
        System.out.println("files: " + where);
        return report.safe() ? 0 : 1;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new CrashCommand()).execute(args));
    }
}
