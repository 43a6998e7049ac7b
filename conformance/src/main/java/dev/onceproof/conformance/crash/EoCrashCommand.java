package dev.onceproof.conformance.crash;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./onceproof crash-eo}: SIGKILL the exactly-once client repeatedly and print the report. */
@Command(name = "crash-eo", mixinStandardHelpOptions = true,
        description = "SIGKILL an exactly-once client JVM (Strategy 1, or Strategy 3 with an R of q slots) while it "
                + "records notes; check that no note is processed twice and no acknowledged note is lost.")
public final class EoCrashCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--crashes", defaultValue = "20", description = "SIGKILLs (default ${DEFAULT-VALUE}).")
    int crashes;

    @Option(names = "--seed", defaultValue = "1", description = "Seed for kill moments and resends (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--min-up", defaultValue = "150", description = "Least ms between restart and kill (default ${DEFAULT-VALUE}).")
    long minUp;

    @Option(names = "--max-up", defaultValue = "450", description = "Most ms between restart and kill (default ${DEFAULT-VALUE}).")
    long maxUp;

    @Option(names = "--ack-first", description = "Negative control: the client acknowledges before it records.")
    boolean ackFirst;

    @Option(names = "--strategy", defaultValue = "1", description = "The client's strategy: 1 (Sequenced Streams) or "
            + "3 (Id List) (default ${DEFAULT-VALUE}).")
    int strategy;

    @Option(names = "--q", defaultValue = "3", description = "Strategy 3: slots of R (default ${DEFAULT-VALUE}).")
    int q;

    @Option(names = "--dir", description = "Directory for the client store and log (default: a new temp dir).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        if (strategy != 1 && strategy != 3) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--strategy " + strategy
                    + ": the crash test has clients for Strategies 1 and 3");
        }
        if (strategy == 3) {
            if (q < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--q " + q + ": R needs at least one slot");
            }
            EoIdListCrashExperiment.Config config = new EoIdListCrashExperiment.Config(crashes, seed, minUp, maxUp, q,
                    false, 15);
            if (ackFirst) {
                config = config.withAckFirst(crashes);
            }
            Path where = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("onceproof-crash-eo-");
            EoIdListCrashReport report = new EoIdListCrashExperiment(config, where, System.out).run();
            report.print(System.out);
            System.out.println("files: " + where);
            return report.safe() ? 0 : 1;
        }
        EoCrashExperiment.Config config = new EoCrashExperiment.Config(crashes, seed, minUp, maxUp, ackFirst, 15);
        Path where = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("onceproof-crash-eo-");
        EoCrashReport report = new EoCrashExperiment(config, where, System.out).run();
        report.print(System.out);
        System.out.println("files: " + where);
        return report.safe() ? 0 : 1;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new EoCrashCommand()).execute(args));
    }
}
