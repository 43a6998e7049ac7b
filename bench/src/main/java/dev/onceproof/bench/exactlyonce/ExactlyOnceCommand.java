package dev.onceproof.bench.exactlyonce;

import dev.onceproof.bench.claims.ClaimsFile;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./onceproof bench exactlyonce}: the exactly-once paper's evaluation (Appendix B, Figures
 * 4-8) from the closed forms and from a simulator running the real cores; {@code --set} computes
 * one point. Deterministic: the same options give the same numbers.
 */
@Command(name = "exactlyonce", mixinStandardHelpOptions = true,
        description = "Exactly-once strategies' throughput ratios p_i/p_0 (App. B): Figures 4-8 as PNGs, every point"
                + " in results.json, the paper's statements as PASS/FAIL; --set NAME=VALUE,... for one point.")
public final class ExactlyOnceCommand implements Callable<Integer> {

    @Option(names = "--set", paramLabel = "NAME=VALUE,...",
            description = "Compute one point: Table 1 parameters (D, N, Tc, alpha, beta, tcap, q, Tr, Tu, dprime, tprime)"
                    + " changed from the base values, e.g. --set D=60,q=12. Prints analytic and simulated ratios.")
    String set;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the stochastic mode (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--connections", defaultValue = "100",
            description = "Connections per stochastic point; 0 skips the stochastic mode (default ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--out", defaultValue = "bench/results/exactlyonce",
            description = "Directory for results.json and the PNGs (default ${DEFAULT-VALUE}).")
    Path out;

    /**
     * Every source folder the numbers depend on (claims.json's inputs): this package, the shared
     * claims code, the cores the rigs run (with the wire codec that counts bytes and the stores in
     * the same folder), and the poms that pin Commons RNG and Statistics (a new release could change
     * a stream or an interval).
     */
    static final java.util.List<String> INPUTS = java.util.List.of(
            "bench/src/main/java/dev/onceproof/bench/exactlyonce",
            "bench/src/main/java/dev/onceproof/bench/claims",
            "impl/src/main/java/dev/onceproof/exactlyonce",
            "impl/src/main/java/dev/onceproof/storage",
            "bench/pom.xml",
            "impl/pom.xml",
            "pom.xml");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (connections < 0 || connections == 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--connections " + connections
                    + ": 0 (no stochastic mode) or at least 2 (a 95% interval needs two connections)");
        }
        Params base;
        try {
            base = set == null ? Params.base() : Params.base().withAll(set);
        } catch (ParamException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--set: " + e.getMessage());
        }
        Simulator sim = new CoreSimulator();
        if (set != null) {
            EoReport.printPoint(base, sim, seed, connections, System.out);
            System.out.println();
            CostTable.print(CostTable.measure(base, sim, seed, connections), connections, System.out);
            CostTable.printLoss(CostTable.duplicatesUnderLoss(base, sim, seed, connections), System.out);
            EoReport.printFootnote7(Footnote7.measure(base, seed, 100_000), System.out);
            return 0;
        }
        EoExperiment.Results res = EoExperiment.run(base, sim, seed, connections);
        EoReport.printPoint(base, sim, seed, connections, System.out);
        System.out.println();
        CostTable.print(res.costs(), connections, System.out);
        CostTable.printLoss(res.lossy(), System.out);
        System.out.println();
        EoReport.printFootnote7(Footnote7.measure(base, seed, 100_000), System.out);
        System.out.println();
        EoReport.printClaims(res.claims(), System.out);
        System.out.printf(java.util.Locale.ROOT, "%nfigure set in %.1f s%n", res.seconds());
        if (sim instanceof CoreSimulator cs) {
            EoReport.printSpeed(cs.speed, System.out);
        }
        String command = "./onceproof bench exactlyonce --seed " + seed + " --connections " + connections;
        System.out.println("wrote " + EoReport.writeJson(res, command, out, sim instanceof CoreSimulator cs ? cs.speed : null));
        System.out.println("wrote " + ClaimsFile.write(ClaimsFile.repoRoot(Path.of("")), out, "exactlyonce", command,
                INPUTS, res.claims().stream().map(Claim::toPaperClaim).toList()));
        for (Path p : EoPlots.write(res, out)) {
            System.out.println("wrote " + p);
        }
        return res.claims().stream().anyMatch(c -> c.status() == Claim.Status.FAIL) ? 1 : 0;
    }
}
