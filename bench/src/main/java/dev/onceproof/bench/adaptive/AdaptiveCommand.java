package dev.onceproof.bench.adaptive;

import dev.onceproof.bench.claims.ClaimsFile;
import dev.onceproof.bench.claims.PaperClaim;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./onceproof bench adaptive}: Chaudhuri, Coan and Welch's adaptive lifetime estimates
 * (Figs. 2 and 3) against a fixed rho on the SCMP core, with each theorem checked on the numbers.
 * Deterministic: the same options give the same numbers.
 */
@Command(name = "adaptive", mixinStandardHelpOptions = true,
        description = "Adaptive lifetime estimation (unlimited/limited horizon vs fixed rho): estimate, table size,"
                + " lost and accepted over step changes, a day-night cycle and transient spikes; checks"
                + " Theorems 2, 4, 6, 8, 10, 11 and prints PASS/FAIL.")
public final class AdaptiveCommand implements Callable<Integer> {

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--length", defaultValue = "1.0",
            description = "Scale of every run's duration; below 1 for a quick look (default ${DEFAULT-VALUE}).")
    double length;

    @Option(names = "--fixed-rho", defaultValue = "256",
            description = "The fixed-rho baseline's constant (default ${DEFAULT-VALUE}).")
    long fixedRho;

    @Option(names = "--out", defaultValue = "bench/results/adaptive",
            description = "Directory for results.json and the PNG plots (default ${DEFAULT-VALUE}).")
    Path out;

    /** Every source folder the numbers depend on: the experiment, the estimators and the SCMP core they drive. */
    static final List<String> INPUTS = List.of(
            "bench/src/main/java/dev/onceproof/bench/adaptive",
            "bench/src/main/java/dev/onceproof/bench/claims",
            "impl/src/main/java/dev/onceproof/adaptive",
            "impl/src/main/java/dev/onceproof/scmp",
            "impl/src/main/java/dev/onceproof/storage",
            "bench/pom.xml",
            "impl/pom.xml",
            "pom.xml");

    /**
     * A check as a claims.json row: every adaptive check measures runs of the real SCMP core with an
     * estimator (basis simulation) against the bound its theorem states, so each can fail.
     */
    static PaperClaim claim(Check c) {
        return PaperClaim.of(c.id(), c.paper(), c.claim(), c.pass() ? PaperClaim.Verdict.PASS : PaperClaim.Verdict.FAIL,
                c.measured(), "the statement holds on every measured run", PaperClaim.Basis.SIMULATION, "");
    }

    @Override
    public Integer call() throws Exception {
        AdaptiveConfig d = AdaptiveConfig.defaults();
        AdaptiveConfig cfg = new AdaptiveConfig(seed, d.clients(), d.gcPeriod(), d.rate(), d.s(), d.h(), d.p(),
                fixedRho, d.dupProb(), length);
        AdaptiveExperiment.Results res = AdaptiveExperiment.run(cfg);
        AdaptiveReport.printTable(res, System.out);
        System.out.println();
        System.out.println("wrote " + AdaptiveReport.writeJson(res, out));
        String command = "./onceproof bench adaptive --seed " + seed + " --length " + length + " --fixed-rho " + fixedRho;
        System.out.println("wrote " + ClaimsFile.write(ClaimsFile.repoRoot(Path.of("")), out, "adaptive", command, INPUTS,
                res.checks().stream().map(AdaptiveCommand::claim).toList()));
        for (Path p : AdaptivePlots.write(res, out)) {
            System.out.println("wrote " + p);
        }
        return res.checks().stream().allMatch(Check::pass) ? 0 : 1;
    }
}
