package dev.onceproof.bench.causal;

import dev.onceproof.bench.claims.ClaimsFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./onceproof bench causal}: Martori and Urso's probabilities (Eqs. 1-13) reproduced by the
 * calculator and checked against a seeded simulation of the real causal core; prints PASS/GAP/FAIL,
 * writes results.json, summary.txt and the plots. Exits 1 on a FAIL, 0 otherwise (a GAP is a
 * documented disagreement with the paper, printed with its size and reason).
 */
@Command(name = "causal", mixinStandardHelpOptions = true,
        description = "Reliable causal delivery (Martori, Urso 2016): t(p) and the window, deliverability under"
                + " no order/FIFO/causal vs Eqs. 1/7/8, false positives vs Eq. 11 and 3/32 e^(-w), RTO (Eq. 13),"
                + " network cost of RER vs acknowledgements; prints PASS/GAP/FAIL.")
public final class CausalBenchCommand implements Callable<Integer> {

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--length", defaultValue = "1.0",
            description = "Scale of every sample size, in (0, 10]; below 1 for a quick look (default ${DEFAULT-VALUE}).")
    double length;

    @Option(names = "--out", defaultValue = "bench/results/causal",
            description = "Directory for results.json, summary.txt and the PNG plots (default ${DEFAULT-VALUE}).")
    Path out;

    @Override
    public Integer call() throws IOException {
        EvalConfig cfg;
        try {
            cfg = EvalConfig.defaults(seed, length);
        } catch (IllegalArgumentException e) {
            System.err.println("bench causal: " + e.getMessage());
            return 2;
        }
        CausalEval.Results res = CausalEval.run(cfg, System.out);
        EvalReport.print(res, System.out);
        Files.createDirectories(out);
        try (PrintStream summary = new PrintStream(Files.newOutputStream(out.resolve("summary.txt")), true,
                StandardCharsets.UTF_8)) {
            EvalReport.print(res, summary);
        }
        System.out.println();
        System.out.println("wrote " + EvalReport.writeJson(res, out));
        System.out.println("wrote " + out.resolve("summary.txt"));
        System.out.println("wrote " + ClaimsFile.write(ClaimsFile.repoRoot(Path.of("")), out, "causal",
                EvalReport.command(res.config()), CausalClaims.INPUTS,
                res.checks().stream().map(CausalClaims::toPaperClaim).toList()));
        for (Path p : EvalPlots.write(res, out)) {
            System.out.println("wrote " + p);
        }
        return res.checks().stream().anyMatch(c -> c.status() == Check.Status.FAIL) ? 1 : 0;
    }
}
