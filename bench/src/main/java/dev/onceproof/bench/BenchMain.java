package dev.onceproof.bench;

import dev.onceproof.bench.adaptive.AdaptiveCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code ./onceproof bench <experiment>}: the papers' experiments and the benchmarks.
 *
 * <p>Every experiment is a picocli subcommand listed in {@code subcommands} below, and only there: to
 * add one, write its {@code @Command} class and add it to that list.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Experiments that reproduce the papers' claims and compare with alternatives.",
        subcommands = {
            AdaptiveCommand.class,
            dev.onceproof.bench.rpc.RpcBenchCommand.class,
            dev.onceproof.bench.causal.CausalBenchCommand.class,
            dev.onceproof.bench.exactlyonce.ExactlyOnceCommand.class,
            dev.onceproof.bench.storage.JournalBenchCommand.class,
            dev.onceproof.bench.history.NoteCostCommand.class,
            dev.onceproof.bench.history.DurableNotesCommand.class,
            dev.onceproof.bench.causal.CausalBufferCommand.class,
        })
public final class BenchMain implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // No experiment named: list them.
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        // Plots are rendered off-screen; CI machines have no display.
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }
}
