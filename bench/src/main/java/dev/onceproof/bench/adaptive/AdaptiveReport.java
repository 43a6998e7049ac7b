package dev.onceproof.bench.adaptive;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders one experiment: a table and the checks on stdout, and results.json. */
final class AdaptiveReport {

    private AdaptiveReport() {
    }

    static void printTable(AdaptiveExperiment.Results res, PrintStream out) {
        AdaptiveConfig c = res.config();
        out.printf(Locale.ROOT, "adaptive lifetime estimation (Chaudhuri, Coan, Welch 1995): seed %d, G=%d ticks,"
                + " R=%d/tick, S=%d H=%d p=%d, fixed rho %d, duplicates %.0f%%, length %.2f%n%n", c.seed(),
                c.gcPeriod(), c.rate(), c.s(), c.h(), c.p(), c.fixedRho(), 100 * c.dupProb(), c.length());
        out.printf(Locale.ROOT, "%-10s %-24s %9s %7s %9s %6s %9s %9s %6s%n", "scenario", "estimator",
                "accepted", "lost", "L/A", "final", "max(Q4)", "meanTable", "viol");
        for (Map.Entry<String, List<RunResult>> e : res.runs().entrySet()) {
            long from = res.scenarios().get(e.getKey()).ticks() * 3 / 4;
            for (RunResult r : e.getValue()) {
                out.printf(Locale.ROOT, "%-10s %-24s %9d %7d %9.5f %6d %9d %9.1f %6d%n", e.getKey(), r.contender(),
                        r.accepted(), r.lost(), r.lossRatio(), r.finalEstimate(), r.series().maxEstimateFrom(from),
                        r.meanTable(), r.violations());
            }
        }
        out.println();
        for (Rounds.Result r : res.history()) {
            out.printf(Locale.ROOT, "history   %-24s ticks to come back below 2X after each burst: %s%n",
                    r.contender(), r.convergence());
        }
        for (Rounds.Result r : res.theorem11()) {
            out.printf(Locale.ROOT, "theorem11 %-24s t' - t_i per round: %s%n", r.contender(), r.convergence());
        }
        for (Rounds.Silence s : res.silence()) {
            out.printf(Locale.ROOT, "silence   %-24s state at t: %s; silences %s -> t' - t %s%n", s.contender(),
                    s.stateAtT().get(0), s.silences(), s.convergence());
        }
        out.println();
        for (Check ch : res.checks()) {
            out.printf(Locale.ROOT, "%s  %-26s %s: %s%n      %s%n", ch.pass() ? "PASS" : "FAIL", ch.id(),
                    ch.paper(), ch.claim(), ch.measured());
        }
    }

    static Path writeJson(AdaptiveExperiment.Results res, Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        root.set("config", json.valueToTree(res.config()));
        root.put("command", "./onceproof bench adaptive");
        ObjectNode scenarios = root.putObject("scenarios");
        for (Map.Entry<String, List<RunResult>> e : res.runs().entrySet()) {
            Scenario sc = res.scenarios().get(e.getKey());
            ObjectNode node = scenarios.putObject(e.getKey());
            node.put("what", sc.what());
            node.put("ticks", sc.ticks());
            node.put("boundFrom", sc.boundFrom());
            node.put("boundX", sc.boundX());
            ArrayNode arr = node.putArray("runs");
            for (RunResult r : e.getValue()) {
                ObjectNode rn = arr.addObject();
                rn.put("estimator", r.contender());
                rn.put("accepted", r.accepted());
                rn.put("lost", r.lost());
                rn.put("lostNotSummaryRejected", r.lostNotSummary());
                rn.put("lossRatio", r.lossRatio());
                rn.put("duplicatesPresented", r.copies());
                rn.put("violations", r.violations());
                rn.put("collections", r.collections());
                rn.put("finalEstimate", r.finalEstimate());
                rn.put("meanTable", r.meanTable());
                ArrayNode samples = rn.putArray("samples");
                for (Series.Sample s : r.series().samples()) {
                    samples.add(json.createArrayNode().add(s.t()).add(s.estimate()).add(s.table())
                            .add(s.accepted()).add(s.lost()));
                }
                rn.put("samplesAre", "[t, estimate, table, accepted, lost]");
            }
        }
        root.set("history", json.valueToTree(res.history()));
        root.set("theorem11", json.valueToTree(res.theorem11()));
        root.set("theorem11Silence", json.valueToTree(res.silence()));
        root.set("checks", json.valueToTree(res.checks()));
        Files.createDirectories(dir);
        Path file = dir.resolve("results.json");
        json.writeValue(file.toFile(), root);
        return file;
    }
}
