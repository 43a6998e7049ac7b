package dev.onceproof.bench.exactlyonce;

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

/** Renders results: a table per point and the claims on stdout, and results.json. */
final class EoReport {

    private EoReport() {
    }

    /** p_i and p_i/p_0 of every strategy at one point: closed form, mean-value and stochastic simulation. */
    static void printPoint(Params p, Simulator sim, long seed, int connections, PrintStream out) {
        out.println("point: " + describe(p));
        out.printf(Locale.ROOT, "t_cs = %.4f s, t_ss = %.4f s, slot threshold 1 + t_ss/t_cs = %.3f, p_s(S5) = %.6f,"
                + " p_s(S6) = %.6f%n", ClosedForms.tcs(p), ClosedForms.tss(p), ClosedForms.slotThreshold(p),
                ClosedForms.ps5(p), ClosedForms.ps6(p));
        out.printf(Locale.ROOT, "%-9s %10s %11s %9s %10s %26s  %s%n", "strategy", "p_i (B.1)", "unclamped", "p_i/p_0",
                "mean-value", "stochastic mean [95% CI]", "note");
        for (int s = 0; s <= 6; s++) {
            ClosedForms.Throughput a = ClosedForms.p(s, p);
            ClosedForms.Throughput r = ClosedForms.ratio(s, p);
            Simulated sv = sim.simulate(s, p, seed + s, connections);
            out.printf(Locale.ROOT, "S%-8d %10.4f %11.4f %9.4f %10s %26s  %s%n", s, a.value(), a.unclamped(), r.value(),
                    sv.meanValue() == null ? "-" : String.format(Locale.ROOT, "%.4f", sv.meanValue()),
                    sv.stochastic() == null ? "-" : String.format(Locale.ROOT, "%.4f [%.4f, %.4f]%s",
                            sv.stochastic().mean(), sv.stochastic().lo(), sv.stochastic().hi(),
                            (sv.stochastic().extended() > 0 ? " extended " + sv.stochastic().extended() : "")
                                    + (sv.stochastic().starved() > 0 ? " starved " + sv.stochastic().starved() : "")),
                    (a.clamped() ? "clamped at 0; " : "") + (sv.missing() == null ? "" : sv.missing()));
        }
    }

    /** The harness figure: stochastic connections simulated per second, per strategy (wall clock, one thread). */
    static void printSpeed(CoreSimulator.Speed speed, PrintStream out) {
        StringBuilder b = new StringBuilder();
        for (int s = 0; s <= 6; s++) {
            if (speed.connections[s] > 0) {
                b.append(String.format(Locale.ROOT, " S%d %.0f (%d);", s, speed.perSecond(s), speed.connections[s]));
            }
        }
        out.printf(Locale.ROOT, "stochastic mode of the figure set: %d connections in %.1f s, %.0f per second; per strategy"
                + " (connections/s, connections):%s%n", speed.total(), speed.seconds(), speed.total() / speed.seconds(),
                b);
    }

    static void printFootnote7(Footnote7 f, PrintStream out) {
        out.printf(Locale.ROOT, "footnote 7: App. B's fan-out round trip 2 t_ss = %.3f s; the mean of the largest of the"
                + " N-1 round trips under f_d is %.3f s (%d draws), %.0f%% longer%n", f.analytic(), f.simulated(),
                f.samples(), 100 * (f.simulated() / f.analytic() - 1));
    }

    static void printClaims(List<Claim> claims, PrintStream out) {
        for (Claim c : claims) {
            String tag = switch (c.status()) {
                case PASS -> "PASS";
                case FAIL -> "FAIL";
                case GAP -> "GAP ";
                case NOT_RUN -> "N/A ";
            };
            out.printf(Locale.ROOT, "%s  %-26s %s [%s]: %s%n      %s%n", tag, c.id(), c.paper(), c.basis().json(),
                    c.claim(), c.measured());
            if (!c.reason().isEmpty()) {
                out.printf(Locale.ROOT, "      why it differs from App. B: %s%n", c.reason());
            }
        }
        long pass = claims.stream().filter(c -> c.status() == Claim.Status.PASS).count();
        long fail = claims.stream().filter(c -> c.status() == Claim.Status.FAIL).count();
        long gap = claims.stream().filter(c -> c.status() == Claim.Status.GAP).count();
        long identities = claims.stream().filter(c -> c.basis() == dev.onceproof.bench.claims.PaperClaim.Basis.IDENTITY)
                .count();
        out.printf(Locale.ROOT, "%d PASS, %d GAP, %d FAIL, %d not run; %d of the lines are identities of the closed"
                + " forms (cannot fail)%n", pass, gap, fail, claims.size() - pass - fail - gap, identities);
    }

    static String describe(Params p) {
        StringBuilder b = new StringBuilder();
        p.asMap().forEach((k, v) -> b.append(b.length() == 0 ? "" : ",").append(k).append('=').append(Params.num(v)));
        return b.toString();
    }

    static Path writeJson(EoExperiment.Results res, String command, Path dir) throws IOException {
        return writeJson(res, command, dir, null);
    }

    static Path writeJson(EoExperiment.Results res, String command, Path dir, CoreSimulator.Speed speed)
            throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        root.put("command", command);
        root.set("base", json.valueToTree(res.base().asMap()));
        root.put("seed", res.seed());
        root.put("connectionsPerStochasticPoint", res.connections());
        root.put("ratiosAre", "p_i/p_0; analytic is clamped at 0, analyticUnclamped is the formula as printed");
        ObjectNode figs = root.putObject("figures");
        for (Figures.Figure f : res.figureList()) {
            ObjectNode fn = figs.putObject(f.id());
            fn.put("title", f.title());
            fn.put("x", f.x());
            fn.put("paper", f.paper());
            fn.put("ours", f.ours());
            ArrayNode curves = fn.putArray("curves");
            for (EoExperiment.CurveResult c : res.figures().get(f.id())) {
                ObjectNode cn = curves.addObject();
                cn.put("label", c.curve().label());
                cn.put("strategy", c.curve().strategy());
                cn.put("set", c.curve().set());
                ArrayNode pts = cn.putArray("points");
                for (Point p : c.points()) {
                    ObjectNode pn = pts.addObject();
                    pn.put("x", p.x());
                    pn.set("params", json.valueToTree(p.params().asMap()));
                    pn.put("analytic", p.analytic().value());
                    pn.put("analyticUnclamped", p.analytic().unclamped());
                    putOrNull(pn, "meanValue", p.simulated().meanValue());
                    if (p.simulated().stochastic() == null) {
                        pn.putNull("stochastic");
                    } else {
                        pn.set("stochastic", json.valueToTree(p.simulated().stochastic()));
                    }
                    if (p.simulated().missing() != null) {
                        pn.put("notSimulated", p.simulated().missing());
                    }
                }
            }
        }
        root.set("claims", json.valueToTree(res.claims()));
        root.set("costsAtBase", json.valueToTree(res.costs()));
        root.set("duplicatesUnderLossAtBase", json.valueToTree(res.lossy()));
        root.set("footnote7", json.valueToTree(Footnote7.measure(res.base(), res.seed(), 100_000)));
        root.put("seconds", res.seconds());
        if (speed != null) {
            ObjectNode sp = root.putObject("stochasticSpeed");
            sp.put("connections", speed.total());
            sp.put("seconds", speed.seconds());
            ObjectNode per = sp.putObject("connectionsPerSecond");
            for (int s = 0; s <= 6; s++) {
                if (speed.connections[s] > 0) {
                    per.put("S" + s, speed.perSecond(s));
                }
            }
        }
        Files.createDirectories(dir);
        Path file = dir.resolve("results.json");
        json.writeValue(file.toFile(), root);
        return file;
    }

    private static void putOrNull(ObjectNode n, String key, Double v) {
        if (v == null || v.isNaN()) {
            n.putNull(key);
        } else {
            n.put(key, v);
        }
    }
}
