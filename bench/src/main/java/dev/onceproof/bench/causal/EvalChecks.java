package dev.onceproof.bench.causal;

import dev.onceproof.causal.Mode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.apache.commons.statistics.distribution.GammaDistribution;

/**
 * The paper's statements, each set against the measured numbers. A grid of points is checked with
 * simultaneous intervals (Bonferroni, 95% for the whole grid), never with a tolerance chosen after
 * looking. Where the paper's statement disagrees beyond the interval and the reason is known, the
 * line is a GAP carrying the measured gap and the reason; an unexplained disagreement is a FAIL.
 */
final class EvalChecks {

    private EvalChecks() {
    }

    static List<Check> evaluate(EvalConfig c, List<Deliverability.Result> deliv, List<FalsePositives.Point> sweep,
            List<FalsePositives.Point> off, List<FalsePositives.SystemPoint> system, List<NetworkCost.Cell> cost) {
        List<Check> out = new ArrayList<>();
        out.add(workedExample());
        out.add(curve("eq1-unordered", "Eq. 1", "without order an event is deliverable when it arrives: P = 1 - e^(-lambda t)",
                deliv.get(0), Mode.UNORDERED, deliv.get(0).eq1()));
        for (int i = 0; i < deliv.size(); i++) {
            Deliverability.Result r = deliv.get(i);
            out.add(curve("eq7-fifo" + WORKLOAD[i], "Eqs. 3 and 7",
                    "FIFO: P(F <= t) = prod_{i < t(p) r / n} P(X <= t + i n / r)", r, Mode.FIFO, r.eq7()));
        }
        Deliverability.Result mix = deliv.get(2);
        out.add(curve("eq2-unordered", "Eq. 2 (Pareto CDF, notes X3)", "without order, deliverable on arrival:"
                + " P = p (1 - e^(-lambda t)) + (1 - p) (1 - (x_m / t)^alpha)", mix, Mode.UNORDERED, mix.eq1()));
        for (int i = 0; i < deliv.size(); i++) {
            Deliverability.Result r = deliv.get(i);
            if (!Double.isNaN(r.eq8()[0])) {
                out.add(causal(r, "eq8-causal" + WORKLOAD[i]));
            }
        }
        List<FalsePositives.Point> all = new ArrayList<>(sweep);
        all.addAll(off);
        out.add(eq11(all));
        out.add(eq12(c, sweep, off));
        out.add(rto(c, all));
        out.add(systemFalsePositives(system));
        out.addAll(cost(c, cost));
        out.add(liveness(cost));
        out.add(paperLiveness(cost));
        return out;
    }

    private static Check workedExample() {
        double tp = Equations.visibilityTime(new LatencyModel.Exponential(0.3), 10, 0.99);
        double window = Equations.window(tp, 30);
        return Check.of("eq6-worked-example", "Eq. 6 and section 4.3",
                "n=10, lambda=0.3, p=0.99: t(p) = 22.66; with r = 30, the last 680 events",
                Math.abs(tp - 22.66) < 0.005 && Math.round(window) == 680,
                String.format(Locale.ROOT, "t(p) = %.4f with the (n-1)-th root of the proof (the printed n-th root"
                        + " gives %.4f); window t(p) r = %.2f -> %d events; per node %.2f", tp,
                        Equations.visibilityTimeAsPrinted(0.3, 10, 0.99), window, Math.round(window), window / 10));
    }

    private static String where(Deliverability.Result r) {
        return "[" + r.cfg().name() + ", " + r.cfg().replications() + " runs of " + r.cfg().events() + " events]";
    }

    static Check curve(String id, String paper, String claim, Deliverability.Result r, Mode mode,
            double[] eq) {
        Interval[] sim = r.sim().get(mode);
        int outside = 0;
        double worst = 0;
        int at = 0;
        StringBuilder where = new StringBuilder();
        for (int j = 0; j < eq.length; j++) {
            if (!sim[j].contains(eq[j])) {
                outside++;
                where.append(String.format(Locale.ROOT, "; outside at t=%.2f: sim %s, eq %.5f", r.t()[j], sim[j], eq[j]));
            }
            if (Math.abs(sim[j].estimate() - eq[j]) > worst) {
                worst = Math.abs(sim[j].estimate() - eq[j]);
                at = j;
            }
        }
        return Check.of(id, paper, claim + " " + where(r), outside == 0, String.format(Locale.ROOT,
                "equation inside the simulated interval at %d of %d t in (0, t(p)]; largest |sim - eq| %.4f at"
                        + " t=%.2f (sim %s, eq %.4f)%s", eq.length - outside, eq.length, worst, r.t()[at], sim[at],
                eq[at], where));
    }

    /**
     * Id suffix per deliverability workload (small group, worked example, mixture), so every line of
     * claims.json has its own id; the first keeps the id it had when one line stood for all three.
     */
    static final String[] WORKLOAD = {"", "-worked-example", "-mixture"};

    static Check causal(Deliverability.Result r) {
        return causal(r, "eq8-causal");
    }

    static Check causal(Deliverability.Result r, String id) {
        Interval[] sim = r.sim().get(Mode.CAUSAL);
        double[] eq8 = r.eq8();
        int outside = 0;
        boolean above = false;
        StringBuilder aboveAt = new StringBuilder();
        double gap = 0;
        double gapC = 0;
        int at = 0;
        for (int j = 0; j < eq8.length; j++) {
            if (!sim[j].contains(eq8[j])) {
                outside++;
                if (eq8[j] > sim[j].hi()) {
                    above = true;
                    aboveAt.append(String.format(Locale.ROOT, " t=%.2f: sim %s, Eq. 8 %.5f;", r.t()[j], sim[j], eq8[j]));
                }
            }
            if (sim[j].estimate() - eq8[j] > gap) {
                gap = sim[j].estimate() - eq8[j];
                at = j;
            }
            gapC = Math.max(gapC, sim[j].estimate() - r.eq8corrected()[j]);
        }
        String measured = String.format(Locale.ROOT, "Eq. 8 (P(D) from Algorithm 1 on the run, P(D <= 0) = %.3f)"
                + " inside the simulated interval at %d of %d t; largest sim - Eq. 8 = %.4f at t=%.2f (sim %s, Eq. 8"
                + " %.4f); with the destination's own events counted as present, %.4f", r.pdZero(),
                eq8.length - outside, eq8.length, gap, r.t()[at], sim[at], eq8[at], gapC);
        String claim = "causal: P(C <= t) = prod over the window of local and remote factors " + where(r);
        if (outside == 0) {
            return new Check(id, "Eqs. 4 and 8", claim, Check.Status.PASS, measured);
        }
        if (!above) {
            return new Check(id, "Eqs. 4 and 8", claim, Check.Status.GAP, measured,
                    "Eq. 8 is biased low, never above the simulation: it multiplies the dependency factors as if"
                    + " independent (they share latencies), uses P(D) unconditionally, and gives the destination's"
                    + " own events P(R) < 1 (notes 4.4)");
        }
        return new Check(id, "Eqs. 4 and 8", claim, Check.Status.FAIL, measured
                + "; Eq. 8 is ABOVE the simulated interval at" + aboveAt + " which its known biases do not explain");
    }

    private static Check eq11(List<FalsePositives.Point> points) {
        double conf = Interval.simultaneous(points.size());
        int outside = 0;
        StringBuilder sb = new StringBuilder();
        for (FalsePositives.Point p : points) {
            Interval iv = Interval.binomial(p.blue(), p.trials(), conf);
            if (!iv.contains(p.eq11())) {
                outside++;
                sb.append(String.format(Locale.ROOT, " outside at w=%.2f rho=%.3f: %s vs %.5f;", p.w(), p.rho(), iv,
                        p.eq11()));
            }
        }
        long trials = points.stream().mapToLong(FalsePositives.Point::trials).sum();
        return Check.of("eq11-fig1", "Eqs. 9-11, Fig. 1",
                "three nodes, delivery on receipt: P(false positive) = 3/8 e^(-lambda (w + rho)) (1 - e^(-lambda rho))",
                outside == 0, String.format(Locale.ROOT, "Eq. 11 inside the Clopper-Pearson interval (%.4f each) at"
                        + " %d of %d (w, rho) points, %d trials on the real core.%s", conf, points.size() - outside,
                        points.size(), trials, sb));
    }

    private static Check eq12(EvalConfig c, List<FalsePositives.Point> sweep, List<FalsePositives.Point> off) {
        int n = sweep.size() + off.size();
        double conf = Interval.simultaneous(n);
        boolean pass = true;
        StringBuilder sb = new StringBuilder();
        for (FalsePositives.Point p : sweep) {
            Interval iv = Interval.binomial(p.blue(), p.trials(), conf);
            double max = Equations.maxFalsePositive(c.lambda(), p.w());
            pass &= iv.contains(max);
            sb.append(String.format(Locale.ROOT, "w=%.1f: %s vs 3/32 e^(-w) %.5f; ", p.w(), iv, max));
        }
        int above = 0;
        for (FalsePositives.Point p : off) {
            if (Interval.binomial(p.blue(), p.trials(), conf).lo() > Equations.maxFalsePositive(c.lambda(), p.w())) {
                above++;
            }
        }
        pass &= above == 0;
        sb.append(String.format(Locale.ROOT, "%d of %d points at other rho significantly above 3/32 e^(-w)", above,
                off.size()));
        return Check.of("eq12-max", "Eq. 12 and after",
                "the false-positive rate peaks at rho = ln 2 / lambda with 3/32 e^(-lambda w) [Fig. 1 scenario]",
                pass, sb.toString());
    }

    private static Check rto(EvalConfig c, List<FalsePositives.Point> points) {
        var model = new LatencyModel.Exponential(c.lambda());
        double rto = Equations.rto(model, Equations.RtoReading.STANDARD_DEVIATION);
        long slow = points.stream().mapToLong(FalsePositives.Point::rttAboveRto).sum();
        long requests = points.stream().mapToLong(FalsePositives.Point::requests).sum();
        double expected = GammaDistribution.of(2, 1 / c.lambda()).survivalProbability(rto);
        Interval iv = Interval.binomial(slow, Math.max(1, requests), Interval.FAMILY_LEVEL);
        return Check.of("eq13-rto", "Eq. 13 (RTTVAR read as the standard deviation, notes Z14)",
                "RTO = SRTT + 4 RTTVAR from the latency model; request-to-resend round trips rarely exceed it",
                requests > 0 && iv.contains(expected), String.format(Locale.ROOT, "RTO = %.3f (the printed"
                        + " variance reading gives %.3f); %d of %d first requests waited longer than RTO: %s vs"
                        + " P(Gamma(2, 1/lambda) > RTO) = %.5f", rto,
                        Equations.rto(model, Equations.RtoReading.VARIANCE_AS_PRINTED), slow, requests, iv, expected));
    }

    private static Check systemFalsePositives(List<FalsePositives.SystemPoint> system) {
        StringBuilder sb = new StringBuilder();
        boolean within = true;
        double worst = 0;
        for (FalsePositives.SystemPoint p : system) {
            within &= p.blue().lo() <= p.bound();
            worst = Math.max(worst, p.blue().estimate() / p.bound());
            sb.append(String.format(Locale.ROOT, "r=%.0f w=%.0f: %.4f per pair (x%.2f of %.4f); ", p.rate(), p.w(),
                    p.blue().estimate(), p.blue().estimate() / p.bound(), p.bound()));
        }
        String claim = "3/32 e^(-w) is the number of false positives of a system using the metadata for"
                + " recovery only [whole group: n=5, lambda=1, round robin, no loss]";
        if (within) {
            return new Check("fp-whole-group", "Section 5.2, last sentence", claim, Check.Status.PASS, sb.toString());
        }
        return new Check("fp-whole-group", "Section 5.2, last sentence", claim, Check.Status.GAP, sb
                + String.format(Locale.ROOT, "up to x%.2f", worst), "3/32 e^(-w) is the worst case for one dependency"
                + " in the three-node scenario; in a group many later events carry the same gap, and the first of them"
                + " starts the wait earlier, so more originals arrive after the request (notes Z12)");
    }

    private static List<Check> cost(EvalConfig c, List<NetworkCost.Cell> cells) {
        List<Check> out = new ArrayList<>();
        String lossy = "RER pays a request and a resend per lost copy (and more when they are lost), while an"
                + " ack scheme's overhead per pair grows only to about 1 + 3 loss";
        out.add(costClaim(c, cells, "cost-control-vs-ack-each", "control messages, vs an ack per message",
                NetworkCost.Cell::ratioEachControl, lossy + "; false positives per pair grow with the rate (many"
                        + " later events reveal a gap, the first starts the wait early), see fp-whole-group"));
        out.add(costClaim(c, cells, "cost-control-vs-ack-cumulative", "control messages, vs a cumulative ack",
                NetworkCost.Cell::ratioCumControl, "at a high rate one cumulative ack covers many events, so"
                        + " its messages per pair fall with the rate while RER's false positives rise; " + lossy));
        out.add(costClaim(c, cells, "cost-all-vs-ack-each", "all messages (data included), vs an ack per message",
                NetworkCost.Cell::ratioEachAll, "every scheme sends each event once to each node, so counting"
                        + " the data caps the ratio near 2 (ack-each: about 2 messages per pair, RER: 1 + requests)"));
        out.add(costClaim(c, cells, "cost-bytes-vs-ack-each", "all bytes, vs an ack per message",
                NetworkCost.Cell::ratioEachAllBytes, "the data messages (payload and vector clock) dominate the"
                        + " bytes of every scheme; an ack is small"));
        return out;
    }

    /**
     * The w every cell of the verdict uses, fixed before the run: choosing the best w per cell after
     * looking would flatter RER (issue 18). The best w per cell is reported beside it.
     */
    static final double VERDICT_W = 3;

    /**
     * baseline/RER per (rate, loss), RER charged every message it sends (heartbeats after the last
     * event included); the claim holds where the ratio at w = {@link #VERDICT_W} is at least 10 at
     * the highest rate for every loss.
     */
    static Check costClaim(EvalConfig c, List<NetworkCost.Cell> cells, String id, String unit,
            ToDoubleFunction<NetworkCost.Cell> ratio, String reason) {
        double top = c.rates()[c.rates().length - 1];
        boolean atTop = true;
        StringBuilder holds = new StringBuilder();
        StringBuilder ratios = new StringBuilder();
        StringBuilder fixed = new StringBuilder();
        for (double rate : c.rates()) {
            List<String> ok = new ArrayList<>();
            ratios.append(String.format(Locale.ROOT, "r=%.0f:", rate));
            fixed.append(String.format(Locale.ROOT, "r=%.0f:", rate));
            for (double loss : c.losses()) {
                double best = 0;
                double bestW = 0;
                double atW = Double.NaN;
                for (NetworkCost.Cell cell : cells) {
                    if (cell.rate() == rate && cell.loss() == loss) {
                        if (ratio.applyAsDouble(cell) > best) {
                            best = ratio.applyAsDouble(cell);
                            bestW = cell.w();
                        }
                        if (cell.w() == VERDICT_W) {
                            atW = ratio.applyAsDouble(cell);
                        }
                    }
                }
                ratios.append(String.format(Locale.ROOT, " q=%s %.1f (w=%.0f)", loss, best, bestW));
                fixed.append(String.format(Locale.ROOT, " q=%s %.1f", loss, atW));
                if (atW >= 10) {
                    ok.add("q=" + loss);
                } else if (rate == top) {
                    atTop = false;
                }
            }
            ratios.append("; ");
            fixed.append("; ");
            holds.append(String.format(Locale.ROOT, "r=%.0f: %s; ", rate, ok.isEmpty() ? "nowhere" : String.join(",", ok)));
        }
        String claim = "RER costs an order of magnitude less than systematic acknowledgements at a very high"
                + " event rate [" + unit + ", per delivered pair, n=5, lambda=1, every RER heartbeat charged]";
        String measured = String.format(Locale.ROOT, "baseline/RER with w = %.0f in every cell (the verdict) ", VERDICT_W)
                + fixed + "with the best w per cell " + ratios + "10x holds (w = " + (int) VERDICT_W + ") at " + holds;
        if (atTop) {
            return new Check(id, "Conclusion (L295), abstract (L54)", claim, Check.Status.PASS, measured.strip());
        }
        return new Check(id, "Conclusion (L295), abstract (L54)", claim, Check.Status.GAP, measured
                + "not at the highest rate for every loss", reason);
    }

    private static Check liveness(List<NetworkCost.Cell> cells) {
        long missing = cells.stream().mapToLong(NetworkCost.Cell::undelivered).sum();
        long twice = cells.stream().mapToLong(NetworkCost.Cell::deliveredTwice).sum();
        long pairs = cells.stream().mapToLong(NetworkCost.Cell::pairs).sum();
        return Check.of("rer-heartbeat-delivers-once", "Section 5.3 with the heartbeat extension (notes Z24)",
                "every event reaches every node once despite loss [core with heartbeats, every cost cell]",
                missing == 0 && twice == 0, String.format(Locale.ROOT, "%d of %d pairs undelivered, %d delivered twice",
                        missing, pairs, twice));
    }

    /**
     * The paper's recovery, run as printed (one retry) and under L240's reading (a message that shows
     * a gap whose retry ran out starts the wait again). PASS when the printed one delivers everything;
     * otherwise GAP when every pair the L240 reading still leaves is a lost copy of an event in the
     * workload's tail (no message after its retry reveals it), so the rest were lost requests and
     * retries; FAIL when the L240 reading leaves an earlier event, which neither cause explains.
     */
    static Check paperLiveness(List<NetworkCost.Cell> cells) {
        long missing = 0;
        int runs = 0;
        long later = -1;
        long never = 0;
        long restartMissing = 0;
        long restartNever = 0;
        boolean tailOnly = true;
        StringBuilder perCell = new StringBuilder();
        for (NetworkCost.Cell cell : cells) {
            if (cell.faithfulUndelivered() >= 0) {
                missing += cell.faithfulUndelivered();
                never += cell.faithfulNeverReceived();
                later = Math.max(later, cell.faithfulLater());
                restartMissing += cell.restartUndelivered();
                restartNever += cell.restartNeverReceived();
                tailOnly &= cell.restartLater() < cell.tailEvents();
                runs++;
                perCell.append(String.format(Locale.ROOT, "%sr=%.0f q=%s: %d/%d (later %d/%d, tail %d)",
                        perCell.length() == 0 ? "" : "; ", cell.rate(), cell.loss(), cell.faithfulUndelivered(),
                        cell.restartUndelivered(), cell.faithfulLater(), cell.restartLater(), cell.tailEvents()));
            }
        }
        String claim = "the RTO and asking another holder ensure eventual delivery [RER as printed: one retry, no"
                + " heartbeat; and under L240's reading, where a message that shows a gap starts the wait again]";
        String measured = String.format(Locale.ROOT, "as printed: %d pairs never delivered in %d lossy runs (%d never"
                + " received a copy, the rest wait behind a missing dependency)%s. Under L240's reading: %d pairs (%d"
                + " never received a copy). Per cell, never delivered printed/L240, the most events issued after one of"
                + " them printed/L240, and the tail (events in the last w + 2 RTO + 10 mean latencies): %s", missing,
                runs, never, later < 0 ? "" : "; at most " + later + " events were issued after any of them",
                restartMissing, restartNever, perCell);
        if (missing == 0) {
            return new Check("rer-paper-eventual-delivery", "Section 5.3", claim, Check.Status.PASS, measured);
        }
        if (!tailOnly) {
            return new Check("rer-paper-eventual-delivery", "Section 5.3", claim, Check.Status.FAIL, measured
                    + "; under L240's reading an event before the tail stays undelivered, which neither a lost last"
                    + " event nor the single retry explains");
        }
        return new Check("rer-paper-eventual-delivery", "Section 5.3", claim, Check.Status.GAP, measured,
                String.format(Locale.ROOT, "%d of the %d pairs are recovered once a later message restarts the wait,"
                        + " so their request and single retry were lost (as printed, an event whose request and retry"
                        + " are lost is never asked for again, and everything after it that depends on it waits); the"
                        + " %d left all lie in the workload's tail: %d lost copies that no message after their retry"
                        + " reveals (notes Z24), the rest waiting behind them. Heartbeats and a retry every RTO close"
                        + " both.", missing - restartMissing, missing, restartMissing, restartNever));
    }
}
