package dev.onceproof.bench.causal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.causal.Mode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Renders a run: tables and the checks on stdout, everything in results.json. */
final class EvalReport {

    private EvalReport() {
    }

    static void print(CausalEval.Results res, PrintStream out) {
        EvalConfig c = res.config();
        out.printf(Locale.ROOT, "%nreliable causal delivery (Martori and Urso 2016): seed %d, length %.2f, %.0fs%n",
                c.seed(), c.length(), res.seconds());
        for (Deliverability.Result r : res.deliverability()) {
            out.printf(Locale.ROOT, "%nP(deliverable at another node by t) [%s]: t(p=%.2f) = %.3f, window %.1f events;"
                    + " mean time to deliverable: none %.3f, FIFO %.3f, causal %.3f%n", r.cfg().name(), r.cfg().p(),
                    r.tp(), r.window(), r.mean().get(Mode.UNORDERED), r.mean().get(Mode.FIFO), r.mean().get(Mode.CAUSAL));
            out.printf(Locale.ROOT, "%8s %9s %7s %9s %7s %9s %7s %9s%n", "t", "none sim", "Eq. 1", "FIFO sim", "Eq. 7",
                    "causal", "Eq. 8", "Eq.8 own");
            // For a non-exponential model Eq. 8 does not exist (NaN), and "Eq. 1" is Eq. 2.
            for (int j = 0; j < r.t().length; j++) {
                out.printf(Locale.ROOT, "%8.3f %9.4f %7.4f %9.4f %7.4f %9.4f %7.4f %9.4f%n", r.t()[j],
                        r.sim().get(Mode.UNORDERED)[j].estimate(), r.eq1()[j], r.sim().get(Mode.FIFO)[j].estimate(),
                        r.eq7()[j], r.sim().get(Mode.CAUSAL)[j].estimate(), r.eq8()[j], r.eq8corrected()[j]);
            }
        }
        out.printf(Locale.ROOT, "%nfalse positives in the Fig. 1 scenario (lambda = %.1f, delivery on receipt):%n",
                c.lambda());
        out.printf(Locale.ROOT, "%6s %6s %8s %8s %8s %9s %8s %7s%n", "w", "rho", "trials", "blue", "Eq. 11", "requests",
                "blue/req", "red");
        for (var list : java.util.List.of(res.sweep(), res.offPeak())) {
            for (FalsePositives.Point p : list) {
                out.printf(Locale.ROOT, "%6.2f %6.3f %8d %8.5f %8.5f %9.5f %8.3f %7.5f%n", p.w(), p.rho(), p.trials(),
                        p.blue() / (double) p.trials(), p.eq11(), p.requests() / (double) p.trials(),
                        p.requests() == 0 ? Double.NaN : p.blue() / (double) p.requests(), p.red() / (double) p.trials());
            }
        }
        out.printf(Locale.ROOT, "%nfalse positives in a whole group (n=5, round robin, no loss, delivery on receipt):%n");
        for (FalsePositives.SystemPoint p : res.system()) {
            out.printf(Locale.ROOT, "  r=%4.0f w=%.0f: %s per pair, 3/32 e^(-w) = %.5f (x%.2f)%n", p.rate(), p.w(),
                    p.blue(), p.bound(), p.blue().estimate() / p.bound());
        }
        out.printf(Locale.ROOT, "%nnetwork cost per delivered (event, remote node) pair, n=5, lambda=1, %d events per"
                + " cell; control = all but an event's first transmission; RER is charged every heartbeat it sends,"
                + " those after the last event included (idle hb)%n", c.cost().events());
        out.printf(Locale.ROOT, "%5s %5s %3s | %7s %7s %7s %7s %6s %6s %6s %5s | %7s %7s | %7s %7s | %6s %6s %6s %6s%n",
                "r", "loss", "w", "RER ctl", "idle hb", "RER all", "RER B", "req", "blue", "lat", "lost", "each ct",
                "each al", "cum ct", "cum al", "ctl/E", "ctl/C", "all/E", "B/E");
        for (NetworkCost.Cell x : res.cost()) {
            out.printf(Locale.ROOT, "%5.0f %5.2f %3.0f | %7.4f %7.4f %7.4f %7.1f %6.4f %6.4f %6.2f %5d | %7.4f %7.4f |"
                    + " %7.4f %7.4f | %6.1f %6.1f %6.2f %6.2f%n", x.rate(), x.loss(), x.w(), x.rerControl(),
                    x.rerIdleHeartbeats(), x.rerAll(),
                    x.rerAllBytes(), x.requests(), x.blue(), x.meanLatency(), x.undelivered(), x.eachControl(),
                    x.eachAll(), x.cumControl(), x.cumAll(), x.ratioEachControl(), x.ratioCumControl(),
                    x.ratioEachAll(), x.ratioEachAllBytes());
        }
        out.println();
        for (Check ch : res.checks()) {
            out.printf(Locale.ROOT, "%-4s  %-30s %s: %s%n      %s%n", ch.status(), ch.id(), ch.paper(), ch.claim(),
                    ch.measured());
            if (!ch.reason().isEmpty()) {
                out.printf(Locale.ROOT, "      why: %s%n", ch.reason());
            }
        }
    }

    static String command(EvalConfig c) {
        return "./onceproof bench causal --seed " + c.seed() + " --length " + c.length();
    }

    static Path writeJson(CausalEval.Results res, Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        root.put("command", command(res.config()));
        root.set("config", json.valueToTree(res.config()));
        root.put("seconds", res.seconds());
        ArrayNode deliv = root.putArray("deliverability");
        for (Deliverability.Result r : res.deliverability()) {
            ObjectNode d = deliv.addObject();
            d.set("config", json.valueToTree(r.cfg()));
            d.put("tp", r.tp());
            d.put("window", r.window());
            d.put("pdZero", r.pdZero());
            d.set("t", json.valueToTree(r.t()));
            for (Mode m : Deliverability.MODES) {
                ObjectNode mode = d.putObject(m.specName());
                mode.set("sim", json.valueToTree(r.sim().get(m)));
                mode.put("meanTimeToDeliverable", r.mean().get(m));
                mode.put("pairsPerRun", r.pairs().get(m));
            }
            d.set("eq1", json.valueToTree(r.eq1()));
            d.set("eq7", json.valueToTree(r.eq7()));
            d.set("eq8", json.valueToTree(r.eq8()));
            d.set("eq8OwnEventsPresent", json.valueToTree(r.eq8corrected()));
        }
        root.set("falsePositivesFig1", json.valueToTree(res.sweep()));
        root.set("falsePositivesFig1OffPeak", json.valueToTree(res.offPeak()));
        root.set("falsePositivesWholeGroup", json.valueToTree(res.system()));
        ArrayNode cost = root.putArray("networkCost");
        for (NetworkCost.Cell x : res.cost()) {
            ObjectNode n = json.valueToTree(x);
            n.put("ratioAckEachOverRerControl", x.ratioEachControl());
            n.put("ratioAckCumulativeOverRerControl", x.ratioCumControl());
            n.put("ratioAckEachOverRerAll", x.ratioEachAll());
            n.put("ratioAckEachOverRerAllBytes", x.ratioEachAllBytes());
            cost.add(n);
        }
        root.set("checks", json.valueToTree(res.checks()));
        Files.createDirectories(dir);
        Path file = dir.resolve("results.json");
        json.writeValue(file.toFile(), root);
        return file;
    }
}
