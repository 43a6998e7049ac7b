package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.auth.AttackCommand;
import dev.onceproof.conformance.crash.CrashCommand;
import dev.onceproof.conformance.manifest.ManifestException;
import dev.onceproof.conformance.trace.TraceFormatException;
import dev.onceproof.conformance.trace.TraceGenerationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./onceproof}: the one entry point for checking the specs, their traces and the cores. */
@Command(name = "onceproof", mixinStandardHelpOptions = true, version = "onceproof 0.1.0",
        description = "Model-checks the specs, keeps their traces fresh and replays them on the Java cores.",
        subcommands = {
                // The command list, one line per command: add yours here.
                VerifyCommand.class,
                TracesCommand.class,
                ReplayCommand.class,
                ModelsCommand.class,
                ServeCommand.class,
                CallCommand.class,
                CrashCommand.class,
                CausalCommand.class,
                dev.onceproof.conformance.crash.EoCrashCommand.class,
                AttackCommand.class,
                dev.onceproof.conformance.report.ReportCommand.class,
                dev.onceproof.conformance.validate.ValidateCommand.class,
                CommandLine.HelpCommand.class,
        })
public final class Main implements Runnable {

    /** Exit code for bad input (a broken manifest or trace) or a TLC run that could not make a trace. */
    public static final int INPUT_ERROR = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // Input errors name file, entry and field already; a stack trace would bury that.
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof ManifestException || e instanceof TraceFormatException
                    || e instanceof TraceGenerationException) {
                cmd.getErr().println("onceproof " + cmd.getCommandName() + ": " + e.getMessage());
                cmd.getErr().flush();
                return INPUT_ERROR;
            }
            throw e;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
